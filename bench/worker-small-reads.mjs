// The Worker's read of one item beside its floor, in one run: the bare Worker through an object
// (the bound the Workers runtime's targets name), that bound with the promises of every answer
// and nothing else (workers/promised-bound-worker.mjs: the request id, nosniff, the CORS headers,
// one log object a request) and items-service's Worker, each in a workerd of its own, loaded in
// turns (turns.mjs) with autocannon, as the Workers' table is. `npm run bench` runs it in its
// Workers part (worker-bench.mjs).
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { count, fixed, ratio, verdict } from './format.mjs'
import { load } from './load.mjs'
import { stopServer } from './servers.mjs'
import { loadInTurns, pooled, turnRatio } from './turns.mjs'
import { bareWorker, bundleForWorkers } from './worker-servers.mjs'

/** The Workers, in table order, and what the report calls them. */
export const workerSmallReadServers = {
  bound: 'through an object',
  promised: 'through an object, with the promises',
  items: 'items-service',
}

/** The least ratio of items-service's read of one item to the bound's. */
export const workerOneItemGoal = 0.7

const promisedBound = fileURLToPath(new URL('workers/promised-bound-worker.mjs', import.meta.url))

/**
 * The bound with the promises, as `startWorker` takes it: on `stored` (a JSON array), its
 * object's storage in `persist`, bundled into `dir` first (it uses http-kit's TypeScript).
 */
export async function promisedBoundWorker(stored, persist, dir) {
  const script = await bundleForWorkers(promisedBound, join(dir, 'promised-bound', 'worker.js'))
  return {
    ...bareWorker(stored, { throughObject: true, persist }),
    script,
    modulesRoot: dirname(script),
  }
}

/**
 * Starts the three Workers (`start`, each one's start by its key in `workerSmallReadServers`),
 * loads `GET /items/:id` over every id on each, a warm-up of `warmup` s and then `turns` turns of
 * `seconds`, and stops them; resolves with every run of the turns.
 */
export async function measureWorkerSmallReads({ start, ids, seconds, warmup, turns, say }) {
  const servers = {}
  try {
    for (const name of Object.keys(workerSmallReadServers)) servers[name] = await start[name]()
    const cycle = ids.map((id) => ({ method: 'GET', path: `/items/${encodeURIComponent(id)}` }))
    for (const server of Object.values(servers)) await load(server, { cycle, seconds: warmup })
    const label = 'workers: one item'
    return await loadInTurns(servers, () => ({ cycle, seconds }), { turns, say, label })
  } finally {
    for (const server of Object.values(servers)) await stopServer(server)
  }
}

/** The Markdown lines of the section. */
export function workerSmallReadsReport({ runs, n, seconds, turns }) {
  const names = Object.keys(workerSmallReadServers)
  const by = Object.fromEntries(
    names.map((name) => [name, pooled(runs.filter((run) => run.server === name))]),
  )
  const lines = ['### One item beside its floor', '']
  lines.push(
    `\`GET /items/:id\` over ${count(n)} movies, on three Workers in turn, ${turns} turns of ${seconds} s each, ` +
      'the order turned by one Worker every turn, autocannon at 50 connections: the bare Worker through an ' +
      'object; the same with the promises of every answer of items-service and nothing else (its request id, ' +
      "nosniff and CORS headers and one log object a request, made with http-kit's code: " +
      '`bench/workers/promised-bound-worker.mjs`), the floor of the promised pipeline; and items-service. A ' +
      "cell is the rate of all runs together and workerd's CPU µs per answer; a ratio is the median over turns " +
      "of the Worker's rate over the bound's in that turn (lowest-highest after it).",
  )
  lines.push('')
  lines.push(
    '| Worker | req/s | workerd µs per answer | over through an object (low-high) | by CPU | unexpected or errors | target |',
  )
  lines.push('|---|--:|--:|--:|--:|--:|---|')
  for (const name of names) {
    const share = name === 'bound' ? undefined : turnRatio(runs, name)
    const cells = [
      workerSmallReadServers[name],
      fixed(by[name].rps),
      fixed(by[name].cpuMicros),
      share ? `${ratio(share.median)} (${ratio(share.low)}-${ratio(share.high)})` : '1.00x',
      ratio(by.bound.cpuMicros / by[name].cpuMicros),
      String(by[name].unexpected),
      name === 'items'
        ? `>= ${workerOneItemGoal}x: ${verdict(share.median >= workerOneItemGoal)}`
        : '',
    ]
    lines.push(`| ${cells.join(' | ')} |`)
  }
  const overFloor = turnRatio(runs, 'items', 'promised')
  lines.push('')
  lines.push(
    `items-service over the floor, per turn: ${ratio(overFloor.median)} (${ratio(overFloor.low)}-${ratio(overFloor.high)}).`,
  )
  lines.push('')
  return lines
}
