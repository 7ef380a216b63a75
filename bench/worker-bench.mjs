// npm run bench on the Workers runtime: items-service's Worker (the bundle `wrangler deploy`
// uploads) run by workerd under Miniflare, loaded as the Node servers are, beside bounds in the
// same runtime: a bare Worker answering cached bytes from memory, and the same bare Worker sending
// every request to one Durable Object that answers them and writes each created item as one row
// (what routing every request through one object, and a durable create, cost by themselves).
// Then one item beside the promised pipeline's floor, in turns (worker-small-reads.mjs), the first request to a new isolate and the upload's size.
import { mkdir, readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { monotonicMs } from './clock.mjs'
import { median, postAll } from './fixtures.mjs'
import { load } from './load.mjs'
import { documents, movie } from './movies.mjs'
import { send, stopAll, stopServer } from './servers.mjs'
import {
  bareWorker,
  copyState,
  itemsWorker,
  mongoModules,
  startTimes,
  startWorker,
  summariseStarts,
} from './worker-servers.mjs'
import { measureWorkerSmallReads, promisedBoundWorker } from './worker-small-reads.mjs'

/** The Workers in table order. */
export const workerLabels = {
  items: 'items-service',
  object: 'bare, through an object',
  bare: 'bare Worker',
}

/**
 * Measures everything above: `script` is the entry of the snapshot of items-service's Worker
 * (`snapshotItemsBundle`), `base` the n movies of the run.
 */
export async function measureWorkers({ work, script, options, say, base }) {
  const { n, seconds, warmup, writes, warmupWrites } = options
  const dir = join(work, 'workers')
  await mkdir(dir, { recursive: true })
  const stored = JSON.stringify(documents(base))
  const ids = base.map((item) => item.id)

  // items-service's storage holding the n movies, POSTed once through the API; each start of it
  // gets a copy, as each Node start gets a copy of the embedded store.
  say(`workers: storing ${n} movies in items-service's object`)
  const seeded = join(dir, 'seeded')
  const seeding = await startWorker('items-service Worker', itemsWorker(script, seeded), dir)
  await postAll(seeding, base)
  await stopServer(seeding)
  let copies = 0
  const start = {
    items: async () => {
      const state = await copyState(seeded, join(dir, `state-${++copies}`))
      return startWorker('items-service Worker', itemsWorker(script, state), dir)
    },
    object: () =>
      startWorker(
        'bare Worker through an object',
        bareWorker(stored, { throughObject: true, persist: join(dir, `object-${++copies}`) }),
        dir,
      ),
    bare: () => startWorker('bare Worker', bareWorker(stored), dir),
  }

  const runs = []
  const listTimes = new Map()
  const keepList = (size, key, time) => {
    const row = listTimes.get(size) ?? { n: size, bytes: time.bytes }
    row[key] = Math.min(row[key] ?? Number.POSITIVE_INFINITY, time.ms)
    listTimes.set(size, row)
  }
  const list = [{ method: 'GET', path: '/items' }]
  const reads = ids.map((id) => ({ method: 'GET', path: `/items/${id}` }))
  const creates = Array.from({ length: warmupWrites + writes }, (_, k) => ({
    method: 'POST',
    path: '/items',
    body: movie(n + k, `new${String(k).padStart(7, '0')}`),
  }))
  for (let round = 1; round <= options.rounds; round++) {
    say(`round ${round}: the Workers with ${n} movies`)
    const servers = {}
    for (const key of Object.keys(workerLabels)) servers[key] = await start[key]()
    const measure = async (endpoint, size, warm, main) => {
      for (const [key, server] of Object.entries(servers)) {
        await load(server, warm)
        const run = await load(server, main)
        runs.push({ round, endpoint, n: size, key, label: workerLabels[key], ...run })
        say(`  ${endpoint} ${workerLabels[key]}: ${run.rps.toFixed(0)} req/s, p99 ${run.p99} ms`)
      }
    }
    const timed = { seconds: warmup }
    await measure('GET /items', n, { cycle: list, ...timed }, { cycle: list, seconds })
    await measure('GET /items/:id', n, { cycle: reads, ...timed }, { cycle: reads, seconds })
    for (const [key, server] of Object.entries(servers))
      keepList(n, key, await timeList(server, options.putTries))
    await measure(
      'POST /items',
      n,
      { once: creates.slice(0, warmupWrites) },
      { once: creates.slice(warmupWrites), expect: 201 },
    )
    for (const [key, server] of Object.entries(servers))
      keepList(n + warmupWrites + writes, key, await timeList(server, options.putTries))
    await stopAll()
  }

  say('workers: one item beside its floor, in turns')
  const small = await measureWorkerSmallReads({
    start: {
      bound: start.object,
      promised: async () =>
        startWorker(
          'bare Worker through an object, with the promises',
          await promisedBoundWorker(stored, join(dir, `promised-${++copies}`), dir),
          dir,
        ),
      items: start.items,
    },
    ids,
    seconds: options.smallSeconds,
    warmup,
    turns: options.smallTurns,
    say,
  })

  say('workers: the first request to a new isolate')
  const cold = { n, tries: options.coldTries, items: [], bare: [] }
  for (let i = 0; i < options.coldTries; i++) {
    for (const key of ['items', 'bare']) {
      cold[key].push(await firstAnswer(await start[key](), n))
    }
  }

  const size = await uploadSize(script)

  return {
    runs,
    small,
    listTimes: [...listTimes.values()].sort((a, b) => a.n - b.n),
    cold: {
      ...cold,
      items: summariseStarts(cold.items),
      bare: summariseStarts(cold.bare),
    },
    size,
  }
}

/**
 * What `wrangler deploy` uploads of the Worker whose entry is `script`, raw and gzipped
 * (`start`), and what `--env mongodb` uploads beside it: the MongoDB store's module and the
 * driver's (`driver`), loaded only with CONNECTION_URL.
 */
async function uploadSize(script) {
  const sizes = { start: { raw: 0, gzip: 0 }, driver: { raw: 0, gzip: 0 } }
  const { modules } = itemsWorker(script, undefined, {}, { upload: 'mongodb' })
  for (const path of [script, ...modules]) {
    const bytes = await readFile(path)
    const part = mongoModules.includes(basename(path)) ? sizes.driver : sizes.start
    part.raw += bytes.length
    part.gzip += gzipSync(bytes).length
  }
  return sizes
}

/** Median of one sequential GET /items after two untimed ones, and its bytes. */
async function timeList(server, tries) {
  const times = []
  let bytes = 0
  for (let i = 0; i < tries + 2; i++) {
    const answer = await send(`${server.url}/items`)
    if (answer.status !== 200) throw new Error(`${server.name} GET /items: ${answer.status}`)
    if (i >= 2) times.push(answer.ms)
    bytes = answer.bytes
  }
  return { ms: median(times), bytes }
}

/**
 * The first GET /items of a Worker just started: ms from workerd's spawn and from its readiness
 * to the whole answer, and the ms Miniflare took before it spawned workerd (encoding the
 * configuration, the modules in it: the local tool's work, not the runtime's). Stops the Worker.
 */
async function firstAnswer(server, n) {
  const answer = await send(`${server.url}/items`)
  const at = monotonicMs()
  await stopServer(server)
  const listed = answer.status === 200 ? JSON.parse(answer.text()).length : -1
  if (listed !== n) throw new Error(`${server.name}: GET /items ${answer.status}, ${listed} items`)
  return startTimes(server, at)
}
