// The Workers of the bench, each run by workerd under Miniflare in a process of its own
// (worker-server.mjs), on a free loopback port, and stopped with the Node servers. A Worker's
// `pid` is workerd's, so that its CPU time is the runtime's, not Miniflare's.
import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { copyFile, cp, mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startNode } from './servers.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const serverEntry = fileURLToPath(new URL('worker-server.mjs', import.meta.url))
const workers = fileURLToPath(new URL('workers/', import.meta.url))
const itemsBundle = join(root, 'items-service/dist-worker/bundle/entry.js')
const itemsNodeEntry = join(root, 'items-service/dist/server.js')

let written = 0

/**
 * Starts a Worker: `options` as worker-server.mjs takes them. Resolves with the server, its
 * workerd's pid, and `started` / `ready` on the monotonic clock (before Miniflare was made, once
 * workerd serves).
 */
export async function startWorker(name, options, work) {
  const file = join(work, `worker-${++written}.json`)
  await writeFile(file, JSON.stringify(options))
  const server = await startNode(name, [serverEntry, file], {
    ready: (out) => Number(/listening on (\d+)/.exec(out)?.[1]),
  })
  const [, pid, started, ready] = /workerd (\d+) started ([\d.]+) ready ([\d.]+)/.exec(server.head)
  return Object.assign(server, {
    pid: Number(pid),
    started: Number(started),
    ready: Number(ready),
  })
}

/**
 * Copies items-service's Worker bundle (what `wrangler deploy` uploads) under `work`, so that every
 * start of the run is the same build even if the workspace is rebuilt meanwhile; its path. Builds
 * it first (`npm run build:worker -w items-service`) when it is missing or older than the Node
 * build, which `npm run bench` has just made.
 */
export async function snapshotItemsBundle(work) {
  const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0)
  if (mtime(itemsBundle) < mtime(itemsNodeEntry)) {
    const built = spawnSync('npm', ['run', 'build:worker', '-w', 'items-service'], {
      cwd: root,
      encoding: 'utf8',
    })
    if (built.status !== 0)
      throw new Error(`the Worker did not build\n${built.stdout}${built.stderr}`)
  }
  const dir = join(work, 'items-worker')
  await mkdir(dir, { recursive: true })
  await copyFile(itemsBundle, join(dir, 'entry.js'))
  return join(dir, 'entry.js')
}

/** items-service's Worker, its objects' storage in `persist`, with these settings. */
export const itemsWorker = (script, persist, bindings = {}) => ({
  script,
  modulesRoot: join(script, '..'),
  objects: true,
  persist,
  bindings: { CORS_ORIGINS: '*', ...bindings },
})

/** The bare Worker on `documents` (a JSON array), answering itself or through one object. */
export const bareWorker = (documents, { throughObject = false } = {}) => ({
  script: join(workers, 'bare-worker.mjs'),
  modulesRoot: workers,
  objects: throughObject,
  bindings: { DOCUMENTS: documents },
})

/** A copy of a Worker's stored state (`persist` folder), for a start of its own. */
export async function copyState(from, to) {
  await cp(from, to, { recursive: true })
  return to
}

/**
 * The bench's Worker that opens a MongoDB client per request, bundled with the driver by
 * wrangler's dry run as items-service's Worker is; the bundle's path.
 */
export function bundleClientPerRequest(work) {
  const outdir = join(work, 'client-per-request')
  const wrangler = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js')
  const args = [
    ...['deploy', join(workers, 'mongo-per-request-worker.mjs'), '--name', 'client-per-request'],
    ...['--compatibility-date', '2025-01-01', '--compatibility-flags', 'nodejs_compat'],
    ...['--dry-run', '--outdir', outdir],
  ]
  // Run in `work`, where wrangler keeps its scratch files; the driver resolves from the source.
  const bundled = spawnSync(process.execPath, [wrangler, ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  })
  if (bundled.status !== 0) {
    throw new Error(`wrangler could not bundle the client-per-request Worker\n${bundled.stderr}`)
  }
  return join(outdir, 'mongo-per-request-worker.js')
}

/** Options of the client-per-request Worker, on the MongoDB at `url`. */
export const clientPerRequestWorker = (script, url) => ({
  script,
  modulesRoot: join(script, '..'),
  bindings: { CONNECTION_URL: url },
})
