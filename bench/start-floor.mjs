// How much of a Worker's start the libraries it is written with set by themselves: small Workers
// of one route each (bench/workers/floor-*.mjs: Hono; zod; zod's `zod/mini`; Hono with
// http-kit's route table, as items-service's routes are written), bundled as items-service's Worker
// is, started in turn with the bare Worker and items-service's (holding n movies), the order
// reversed every round. Each start is timed from workerd's spawn to the first 200 of GET /items.
//   npm run bench:startfloor [-- --rounds 9] [--n 1000]
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { englishZodMessagesOnly } from '../items-service/scripts/english-zod-messages-only.mjs'
import { monotonicMs } from './clock.mjs'
import { median, postAll } from './fixtures.mjs'
import { count, fixed, ratio } from './format.mjs'
import { documents, movies } from './movies.mjs'
import { send, stopAll, stopServer } from './servers.mjs'
import {
  bareWorker,
  bundleForWorkers,
  copyState,
  itemsWorker,
  snapshotItemsBundle,
  startTimes,
  startWorker,
} from './worker-servers.mjs'

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '9' }, n: { type: 'string', default: '1000' } },
})
const rounds = Number(values.rounds)
const n = Number(values.n)
const workers = new URL('workers/', import.meta.url)

/** The small Workers, by what they are written with. */
const floors = {
  'Hono, one route': 'floor-hono.mjs',
  "zod's `zod/mini`, one schema checked": 'floor-zod-mini.mjs',
  'zod, one schema checked': 'floor-zod.mjs',
  "Hono with http-kit's `ApiApp`, one route and its schema": 'floor-api-app.mjs',
}

const work = await mkdtemp(join(tmpdir(), 'start-floor-'))
try {
  const base = movies(n)
  const script = await snapshotItemsBundle(work)
  const seeded = join(work, 'seeded')
  const seeding = await startWorker('items-service Worker', itemsWorker(script, seeded), work)
  await postAll(seeding, base)
  await stopServer(seeding)

  let copies = 0
  const starts = { 'bare Worker': () => bareWorker(JSON.stringify(documents(base))) }
  const sizes = {}
  for (const [label, file] of Object.entries(floors)) {
    // Minified, zod's messages in English only, as scripts/build-worker.mjs makes the service's.
    const path = await bundleForWorkers(
      new URL(file, workers).pathname,
      join(work, 'floors', file.replace(/\.mjs$/, '.js')),
      { minify: true, plugins: [englishZodMessagesOnly] },
    )
    sizes[label] = (await readFile(path)).length
    starts[label] = () => ({ script: path, modulesRoot: join(work, 'floors') })
  }
  // Its upload: every module, the MongoDB driver's included (compiled at start, not evaluated).
  const modules = [script, ...itemsWorker(script).modules]
  sizes['items-service'] = (await Promise.all(modules.map((path) => readFile(path)))).reduce(
    (sum, bytes) => sum + bytes.length,
    0,
  )
  starts['items-service'] = async () =>
    itemsWorker(script, await copyState(seeded, join(work, `state-${++copies}`)))

  const times = Object.fromEntries(Object.keys(starts).map((label) => [label, []]))
  for (let round = 1; round <= rounds; round++) {
    const order = Object.keys(starts)
    if (round % 2 === 0) order.reverse()
    for (const label of order) {
      const server = await startWorker(label, await starts[label](), work)
      const answer = await send(`${server.url}/items`)
      const at = monotonicMs()
      await stopServer(server)
      if (answer.status !== 200) throw new Error(`${label}: GET /items ${answer.status}`)
      times[label].push(startTimes(server, at).total)
    }
  }

  const bare = median(times['bare Worker'])
  console.log(
    `Starts of each Worker (${rounds} each, medians), from workerd's spawn to the first 200 of GET /items; items-service holds ${count(n)} movies.\n`,
  )
  console.log('| Worker | modules, minified | spawn to the first 200 | over the bare Worker |')
  console.log('|---|--:|--:|--:|')
  for (const [label, runs] of Object.entries(times)) {
    const size = sizes[label] === undefined ? '' : `${fixed(sizes[label] / 1000)} KB`
    const ms = median(runs)
    console.log(`| ${label} | ${size} | ${fixed(ms)} ms | ${ratio(ms / bare)} |`)
  }
} finally {
  await stopAll()
  await rm(work, { recursive: true, force: true })
}
