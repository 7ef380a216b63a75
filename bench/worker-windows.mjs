// Reads and creates on the Workers runtime in short windows, for a ratio that this machine's noise
// does not decide: workerd's CPU per answer moves by half from one second to the next, so one run
// of a few seconds per Worker can put the same build at 0.7x or 1.5x of itself. Every Worker is
// started once and kept; each window loads each of them in turn (the order reversed every other
// window): a read for `--seconds`, or `--creates` new movies POSTed, and each Worker's rate is
// set against the first one's of the same window. Prints, per endpoint and Worker, the median of
// those paired ratios with their range, and the medians of the rates. With `--one-runtime`, the
// Workers share one workerd, as Workers share a runtime on the platform; otherwise each has its
// own. Beside the bare Worker through an object run the same with the headers every answer of
// items-service carries, and a Hono app with those headers and a log line in front of the same
// object (workers/hono-floor-worker.mjs: the floor of what the service's answers promise);
// items-service is set against all three.
// Usage (after `npm run build`):
//   node bench/worker-windows.mjs [<other build>/items-service/dist-worker/bundle/entry.js]
//     [--windows 10] [--seconds 1] [--creates 400] [--n 1000] [--one-runtime]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { median, postAll } from './fixtures.mjs'
import { ratio } from './format.mjs'
import { connections, load } from './load.mjs'
import { documents, movie, movies } from './movies.mjs'
import { stopAll } from './servers.mjs'
import {
  bareWorker,
  honoFloorWorker,
  itemsWorker,
  snapshotItemsBundle,
  startWorker,
  startWorkersTogether,
} from './worker-servers.mjs'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    windows: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '1' },
    creates: { type: 'string', default: '400' },
    n: { type: 'string', default: '1000' },
    'one-runtime': { type: 'boolean', default: false },
  },
})
const windows = Number(values.windows)
const seconds = Number(values.seconds)
const creates = Number(values.creates)
// Every connection makes at least one create.
if (!(creates >= connections)) throw new Error(`--creates: at least ${connections}`)
const work = await mkdtemp(join(tmpdir(), 'worker-windows-'))
const list = movies(Number(values.n))
const stored = JSON.stringify(documents(list))

const named = [
  [
    'bare, through an object',
    bareWorker(stored, { throughObject: true, persist: join(work, 'object') }),
  ],
  [
    "bare, through an object, with the service's headers",
    bareWorker(stored, {
      throughObject: true,
      persist: join(work, 'headers'),
      serviceHeaders: true,
    }),
  ],
  [
    "bare, through an object, answered by Hono with the service's headers and line",
    await honoFloorWorker(stored, { persist: join(work, 'floor'), work }),
  ],
  ['items-service, this build', itemsWorker(await snapshotItemsBundle(work), join(work, 'this'))],
]
if (positionals[0]) {
  const other = itemsWorker(resolve(positionals[0]), join(work, 'other'))
  named.push(['items-service, other build', other])
}
/** Each Worker in a workerd of its own, one after another. */
async function startApart() {
  const servers = []
  for (const [name, options] of named) servers.push(await startWorker(name, options, work))
  return servers
}
const servers = values['one-runtime']
  ? await startWorkersTogether(named, join(work, 'objects'), work)
  : await startApart()
const workers = named.map(([name], i) => [name, servers[i]])
// items-service's objects hold the movies, POSTed through the API; the bounds have them built in.
for (const [name, server] of workers) {
  if (name.startsWith('items-service')) await postAll(server, list)
}
let created = 0

/** Each endpoint's load for one window: a read for `seconds`, or `creates` new movies. */
const endpoints = {
  'GET /items/:id': () => ({
    cycle: list.map(({ id }) => ({ method: 'GET', path: `/items/${id}` })),
    seconds,
  }),
  'GET /items': () => ({ cycle: [{ method: 'GET', path: '/items' }], seconds }),
  'POST /items': () => ({
    once: Array.from({ length: creates }, () => {
      created += 1
      return { method: 'POST', path: '/items', body: movie(list.length + created, `w${created}`) }
    }),
    expect: 201,
  }),
}
try {
  for (const [endpoint, loadOf] of Object.entries(endpoints)) {
    for (const [, server] of workers) await load(server, loadOf())
    const rates = new Map(workers.map(([name]) => [name, []]))
    // Each answer's CPU, inverted (answers per CPU second), so that its ratios read as the rates'.
    const byCpu = new Map(workers.map(([name]) => [name, []]))
    for (let window = 0; window < windows; window++) {
      const order = window % 2 === 0 ? workers : [...workers].reverse()
      for (const [name, server] of order) {
        const run = await load(server, loadOf())
        if (run.unexpected > 0 || run.errors > 0) {
          throw new Error(
            `${name}, ${endpoint}: ${run.unexpected} answers not 2xx, ${run.errors} errors`,
          )
        }
        rates.get(name).push(run.rps)
        byCpu.get(name).push(1e6 / run.cpuPerAnswer)
      }
    }
    const window = endpoint.startsWith('POST') ? `${creates} creates` : `${seconds} s`
    const runtime = values['one-runtime'] ? 'one workerd' : 'a workerd each'
    console.log(`${endpoint}, ${windows} windows of ${window}, ${list.length} movies, ${runtime}:`)
    /**
     * The median of `name`'s rates over `bound`'s, window by window, with their range; then the
     * same by workerd's CPU per answer, which the other processes on the cores move far less.
     */
    const over = (name, bound) => {
      const paired = (figures) =>
        figures.get(name).map((figure, window) => figure / figures.get(bound)[window])
      const [byRate, byWorkerdCpu] = [paired(rates), paired(byCpu)]
      const range = `${ratio(Math.min(...byRate))}-${ratio(Math.max(...byRate))}`
      const cpuRange = `${ratio(Math.min(...byWorkerdCpu))}-${ratio(Math.max(...byWorkerdCpu))}`
      return (
        `${ratio(median(byRate))} (windows ${range}; by CPU ` +
        `${ratio(median(byWorkerdCpu))}, ${cpuRange})`
      )
    }
    const [[object], [headers], [floor]] = workers
    for (const [name] of workers) {
      const againstTheOthers = name.startsWith('items-service')
        ? `; over with the service's headers ${over(name, headers)}` +
          `; over Hono with the headers and line ${over(name, floor)}`
        : ''
      console.log(
        `  ${name}: ${median(rates.get(name)).toFixed(0)} req/s, ` +
          `${(1e6 / median(byCpu.get(name))).toFixed(0)} µs of CPU an answer (medians); ` +
          `over through an object ${over(name, object)}${againstTheOthers}`,
      )
    }
  }
} finally {
  await stopAll()
  await rm(work, { recursive: true, force: true })
}
