// The Workers of the bench, each run by workerd under Miniflare in a process of its own
// (worker-server.mjs), on a free loopback port, and stopped with the Node servers. A Worker's
// `pid` is workerd's, so that its CPU time is the runtime's, not Miniflare's.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { copyFile, cp, mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
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
const mailWorkerScript = join(root, 'mail-service/dist/worker.js')

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
 * Several Workers in one workerd (worker-server.mjs's `workers`), as Workers share a runtime on
 * the platform: `workers` is [name, options] pairs as `startWorker` takes options, their objects'
 * storage all under `persist`. Resolves with a server per Worker, in order: its own port, the
 * one workerd's pid; stopping one stops them all.
 */
export async function startWorkersTogether(workers, persist, work) {
  const together = {
    workers: workers.map(([, { persist: _ignored, ...options }], i) => ({
      ...options,
      name: `w${i}`,
    })),
    persist,
  }
  const server = await startWorker(workers.map(([name]) => name).join(' + '), together, work)
  const ports = /ports ([\d,]+)/.exec(server.head)[1].split(',').map(Number)
  return ports.map((port, i) =>
    Object.assign(Object.create(server), {
      name: workers[i][0],
      port,
      url: `http://127.0.0.1:${port}`,
    }),
  )
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

/** Copies mail-service's Worker (`dist/worker.js`, one module) under `work`; its path. */
export async function snapshotMailWorker(work) {
  if (!existsSync(mailWorkerScript))
    throw new Error(`${mailWorkerScript}: build mail-service first`)
  const dir = join(work, 'mail-worker')
  await mkdir(dir, { recursive: true })
  await copyFile(mailWorkerScript, join(dir, 'worker.js'))
  return join(dir, 'worker.js')
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
 * storage is in `persist` (a folder, as items-service's object's is; in memory when absent), its
 * answers with items-service's headers when `serviceHeaders`.
 */
export const bareWorker = (
  documents,
  { throughObject = false, persist, serviceHeaders = false } = {},
) => ({
  script: join(workers, 'bare-worker.mjs'),
  modulesRoot: workers,
  ...(throughObject && { durableObjects: itemsObjects, ...(persist && { persist }) }),
  bindings: { DOCUMENTS: documents, ...(serviceHeaders && { SERVICE_HEADERS: 'true' }) },
})

/**
 * The floor of what items-service's answers promise (workers/hono-floor-worker.mjs: Hono, the
 * service's headers, a log line, then the bare Worker's object), bundled with Hono into `work`;
 * its objects' storage in `persist`.
 */
export async function honoFloorWorker(documents, { persist, work }) {
  const script = await bundleForWorkers(
    join(workers, 'hono-floor-worker.mjs'),
    join(work, 'hono-floor', 'worker.mjs'),
  )
  return {
    script,
    modulesRoot: dirname(script),
    durableObjects: itemsObjects,
    persist,
    // The object's answers carry its tag, which the Worker passes on.
    bindings: { DOCUMENTS: documents, SERVICE_HEADERS: 'true' },
  }
}

/** The key the mail Workers of the bench take, and the settings of mail-service's. */
export const mailKey = 'bench-key'

/**
 * mail-service's Worker in outbox mode, its state object's storage in `persist`, the rate
 * limits off (every send of the bench goes to one address), and no Node compatibility, as its
 * wrangler.toml has none.
 */
export const mailWorker = (script, persist) => ({
  script,
  modulesRoot: dirname(script),
  compatibilityFlags: [],
  durableObjects: { MAIL_STATE: { className: 'MailStateObject', useSQLite: true } },
  persist,
  bindings: {
    API_KEYS: mailKey,
    MAIL_TRANSPORT: 'outbox',
    RATE_LIMIT_PER_RECIPIENT: '0',
    RATE_LIMIT_PER_KEY: '0',
  },
})

/** The bare mail Worker: every send to one object, which writes one row (bare-mail-worker.mjs). */
export const bareMailWorker = (persist) => ({
  script: join(workers, 'bare-mail-worker.mjs'),
  modulesRoot: workers,
  compatibilityFlags: [],
  durableObjects: { MAIL_STATE: { className: 'MailLogObject', useSQLite: true } },
  persist,
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
  modulesRoot: dirname(script),
  bindings: { CONNECTION_URL: url },
})
