// The Workers of the bench, each run by workerd under Miniflare in a process of its own
// (worker-server.mjs), on a free loopback port, and stopped with the Node servers. A Worker's
// `pid` is workerd's, so that its CPU time is the runtime's, not Miniflare's.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { copyFile, cp, mkdir, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { median } from './fixtures.mjs'
import { startNode } from './servers.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const serverEntry = fileURLToPath(new URL('worker-server.mjs', import.meta.url))
const workers = fileURLToPath(new URL('workers/', import.meta.url))
// The upload for MongoDB (`wrangler deploy --env mongodb`): the default one is the same modules
// but `mongoModules`.
const itemsBundle = join(root, 'items-service/dist-worker/bundle-mongodb/entry.js')
/** The modules only the upload for MongoDB carries: the store's and the driver's. */
export const mongoModules = ['mongo-item-store.js', 'mongodb.js']
const itemsNodeEntry = join(root, 'items-service/dist/server.js')

let written = 0

/**
 * Starts a Worker: `options` as worker-server.mjs takes them. Resolves with the server, its
 * workerd's pid, and `started` / `spawned` / `ready` on the monotonic clock (before Miniflare was
 * made, as it spawned workerd, once workerd serves).
 */
export async function startWorker(name, options, work) {
  const file = join(work, `worker-${++written}.json`)
  await writeFile(file, JSON.stringify(options))
  const server = await startNode(name, [serverEntry, file], {
    ready: (out) => Number(/listening on (\d+)/.exec(out)?.[1]),
  })
  const [, pid, started, spawned, ready] =
    /workerd (\d+) started ([\d.]+) spawned ([\d.]+) ready ([\d.]+)/.exec(server.head)
  return Object.assign(server, {
    pid: Number(pid),
    started: Number(started),
    spawned: Number(spawned),
    ready: Number(ready),
  })
}

/**
 * A start's times up to an answer that came `at` (monotonic ms): from workerd's spawn (`total`,
 * the runtime's start), from its readiness (`first`), and Miniflare's own before the spawn
 * (`miniflare`: it encodes the configuration, the modules in it, which the platform never does).
 */
export const startTimes = (server, at) => ({
  total: at - server.spawned,
  first: at - server.ready,
  miniflare: server.spawned - server.started,
})

/** The medians of starts' times (`startTimes`). */
export const summariseStarts = (tries) => ({
  total: median(tries.map((one) => one.total)),
  first: median(tries.map((one) => one.first)),
  miniflare: median(tries.map((one) => one.miniflare)),
})

/** The build's modules in `dir`, the entry first: what `wrangler deploy` uploads from it. */
const modulesIn = (dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .sort((a, b) => Number(b === 'entry.js') - Number(a === 'entry.js'))
    .map((name) => join(dir, name))

/**
 * Copies items-service's Worker (the modules `wrangler deploy --env mongodb` uploads, of which
 * the default upload is all but the MongoDB store's and the driver's) under `work`, so that
 * every start of the run is the same build even if the workspace is rebuilt meanwhile; the path
 * of its entry module, the others beside it. Builds it first (`npm run build:worker -w
 * items-service`) when it is missing or older than the Node build, which `npm run bench` has
 * just made.
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
  for (const module of modulesIn(dirname(itemsBundle))) {
    await copyFile(module, join(dir, basename(module)))
  }
  return join(dir, 'entry.js')
}

const itemsObjects = { ITEMS: { className: 'ItemsObject', useSQLite: true } }

/**
 * items-service's Worker, its objects' storage in `persist`, with these settings, as `upload`
 * deploys it: `default` (`wrangler deploy`), without the MongoDB store's module and the
 * driver's, or `mongodb` (`wrangler deploy --env mongodb`), with them.
 */
export const itemsWorker = (script, persist, bindings = {}, { upload = 'default' } = {}) => ({
  script,
  modules: modulesIn(dirname(script)).filter(
    (path) => path !== script && (upload === 'mongodb' || !mongoModules.includes(basename(path))),
  ),
  modulesRoot: dirname(script),
  durableObjects: itemsObjects,
  persist,
  bindings: { CORS_ORIGINS: '*', ...bindings },
})

/**
 * The bare Worker on `documents` (a JSON array), answering itself or through one object, whose
 * storage is in `persist` (a folder, as items-service's object's is; in memory when absent).
 */
export const bareWorker = (documents, { throughObject = false, persist } = {}) => ({
  script: join(workers, 'bare-worker.mjs'),
  modulesRoot: workers,
  ...(throughObject && { durableObjects: itemsObjects, ...(persist && { persist }) }),
  bindings: { DOCUMENTS: documents },
})

/**
 * One module bundled for the Workers runtime as items-service's Worker is (its
 * scripts/build-worker.mjs): ESM for the runtime's conditions, its `node:` and `cloudflare:`
 * modules left to the runtime. Resolves with `outfile`.
 */
export async function bundleForWorkers(entry, outfile, { minify = false, plugins = [] } = {}) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'neutral',
    target: 'es2022',
    format: 'esm',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    external: ['node:*', 'cloudflare:*'],
    minify,
    plugins,
    logLevel: 'warning',
  })
  return outfile
}

/** A copy of a Worker's stored state (`persist` folder), for a start of its own. */
export async function copyState(from, to) {
  await cp(from, to, { recursive: true })
  return to
}
