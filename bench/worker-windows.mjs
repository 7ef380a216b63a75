// Reads on the Workers runtime in short windows, for a ratio that this machine's noise does not
// decide: workerd's CPU per answer moves by half from one second to the next, so one run of a few
// seconds per Worker can put the same build at 0.7x or 1.5x of itself. Every Worker is started
// once and kept; each window loads each of them for `--seconds`, in turn (the order reversed
// every other window), and each Worker's rate is set against the first one's of the same window.
// Prints, per endpoint and Worker, the median of those paired ratios with their range, and the
// medians of the rates.
// Usage (after `npm run build`):
//   node bench/worker-windows.mjs [<other build>/items-service/dist-worker/bundle/entry.js]
//     [--windows 10] [--seconds 1] [--n 1000]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { median, postAll } from './fixtures.mjs'
import { ratio } from './format.mjs'
import { load } from './load.mjs'
import { documents, movies } from './movies.mjs'
import { stopAll } from './servers.mjs'
import { bareWorker, itemsWorker, snapshotItemsBundle, startWorker } from './worker-servers.mjs'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    windows: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '1' },
    n: { type: 'string', default: '1000' },
  },
})
const windows = Number(values.windows)
const seconds = Number(values.seconds)
const work = await mkdtemp(join(tmpdir(), 'worker-windows-'))
const list = movies(Number(values.n))
const stored = JSON.stringify(documents(list))

/** items-service's Worker from `script`, its object holding the movies, POSTed through the API. */
async function items(name, script) {
  const server = await startWorker(name, itemsWorker(script, join(work, name)), work)
  await postAll(server, list)
  return server
}

const workers = [
  [
    'bare, through an object',
    await startWorker(
      'bare Worker through an object',
      bareWorker(stored, { throughObject: true, persist: join(work, 'object') }),
      work,
    ),
  ],
  ['items-service, this build', await items('this-build', await snapshotItemsBundle(work))],
]
if (positionals[0])
  workers.push(['items-service, other build', await items('other', resolve(positionals[0]))])

const endpoints = {
  'GET /items/:id': list.map(({ id }) => ({ method: 'GET', path: `/items/${id}` })),
  'GET /items': [{ method: 'GET', path: '/items' }],
}
try {
  for (const [endpoint, cycle] of Object.entries(endpoints)) {
    for (const [, server] of workers) await load(server, { cycle, seconds: 1 })
    const rates = new Map(workers.map(([name]) => [name, []]))
    for (let window = 0; window < windows; window++) {
      const order = window % 2 === 0 ? workers : [...workers].reverse()
      for (const [name, server] of order) {
        const run = await load(server, { cycle, seconds })
        if (run.unexpected > 0 || run.errors > 0) {
          throw new Error(
            `${name}, ${endpoint}: ${run.unexpected} answers not 2xx, ${run.errors} errors`,
          )
        }
        rates.get(name).push(run.rps)
      }
    }
    const bound = rates.get(workers[0][0])
    console.log(`${endpoint}, ${windows} windows of ${seconds} s, ${list.length} movies:`)
    for (const [name] of workers) {
      const paired = rates.get(name).map((rate, window) => rate / bound[window])
      console.log(
        `  ${name}: ${median(rates.get(name)).toFixed(0)} req/s (median); ` +
          `over through an object ${ratio(median(paired))} ` +
          `(windows ${ratio(Math.min(...paired))}-${ratio(Math.max(...paired))})`,
      )
    }
  }
} finally {
  await stopAll()
  await rm(work, { recursive: true, force: true })
}
