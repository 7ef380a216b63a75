// The Markdown of the Workers section of RESULTS.md (worker-bench.mjs measures it).

import { count, cpuPerAnswer, fixed, ratio, verdict } from './format.mjs'
import { bestOf } from './report.mjs'
import { workerSmallReadsReport } from './worker-small-reads.mjs'

const endpoints = ['GET /items', 'GET /items/:id', 'POST /items']
const mib = (bytes) => `${fixed(bytes / 1048576, 2)} MiB`

/** The section's lines, and the table of every run (or none). */
export function workerReport({ options, workers }) {
  const { runs, small, listTimes, cold, size } = workers
  const best = bestOf(runs.map((run) => ({ ...run, server: run.key })))
  const at = (endpoint, key) => best.get(`${endpoint}|${options.n}|${key}`)
  const lines = []
  lines.push('## On the Workers runtime')
  lines.push('')
  lines.push(
    "items-service's Worker as `wrangler deploy` uploads it (the modules of `items-service/dist-worker/bundle/`), " +
      "run by workerd under Miniflare: the app runs in the Worker, over the collection's Durable Object " +
      '(SQLite storage), which holds the items and serves every read and write. Beside it, in the same runtime and the same run: the bare Worker ' +
      '(`bench/workers/bare-worker.mjs`: cached JSON bytes from memory, the bound, as the bare node:http ' +
      'server is on Node) and the same bare Worker sending every request to one Durable Object that ' +
      'answers it from memory and writes each created item as one row of its SQLite storage ("through ' +
      'an object": what the hop to an object and a durable create cost by themselves). Loaded ' +
      `with autocannon as the Node servers are (${options.connections} connections, best of ${options.rounds}); ` +
      '"by CPU" compares workerd\'s CPU time per answer.',
  )
  lines.push('')
  lines.push(
    '| endpoint | n | ours req/s | ours p50 / p99 ms | bare Worker req/s | bare p50 / p99 ms | through an object req/s | through an object p50 / p99 ms | non-2xx ours/bare/object | errors ours/bare/object | ours/bare | ours/bare by CPU | ours/through an object | ours/through an object by CPU | target |',
  )
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|')
  const order = ['items', 'bare', 'object']
  for (const endpoint of endpoints) {
    const row = Object.fromEntries(order.map((key) => [key, at(endpoint, key)]))
    if (order.some((key) => !row[key])) continue
    const cells = [endpoint, count(options.n)]
    for (const key of order) {
      cells.push(fixed(row[key].rps), `${fixed(row[key].p50, 1)} / ${fixed(row[key].p99, 1)}`)
    }
    cells.push(order.map((key) => row[key].non2xx).join(' / '))
    cells.push(order.map((key) => row[key].errors).join(' / '))
    for (const bound of ['bare', 'object']) {
      cells.push(
        ratio(row.items.rps / row[bound].rps),
        ratio(cpuPerAnswer(row[bound]) / cpuPerAnswer(row.items)),
      )
    }
    // Against the hop's own cost, which every request of ours pays by design (one object per
    // collection): one item's read at 0.7x of it, the list and a create at 0.9x.
    const target = endpoint === 'GET /items/:id' ? 0.7 : 0.9
    const met = row.items.rps / row.object.rps >= target
    cells.push(`>= ${target}x through an object: ${verdict(met)}`)
    lines.push(`| ${cells.join(' | ')} |`)
  }
  lines.push('')
  if (small.length > 0) {
    const turns = options.smallTurns
    lines.push(
      ...workerSmallReadsReport({
        runs: small,
        n: options.n,
        seconds: options.smallSeconds,
        turns,
      }),
    )
  }
  const [listAtN] = listTimes
  const item = at('GET /items/:id', 'items')
  const list = at('GET /items', 'items')
  const post = at('POST /items', 'items')
  const grown = options.n + options.warmupWrites + options.writes
  if (item && list && post && listAtN) {
    lines.push(
      `Through one object in this run: ${fixed(item.rps)} reads of one item a second; ${fixed(list.rps)} whole ` +
        `lists of ${count(options.n)} items a second (${fixed((list.rps * listAtN.bytes) / 1e6)} MB/s of answers); ` +
        `${fixed(post.rps)} creations a second while the list grew from ${count(options.n + options.warmupWrites)} ` +
        `to ${count(grown)} items, each answered with the whole list.`,
    )
    lines.push('')
  }
  lines.push(
    `One GET /items, sequential on a kept-alive connection, median of ${options.putTries} (after the POSTs, the list holds ${count(grown)} items):`,
  )
  lines.push('')
  lines.push(
    '| n | answer bytes | ours ms | ours ms per MB | through an object ms | bare Worker ms |',
  )
  lines.push('|--:|--:|--:|--:|--:|--:|')
  for (const time of listTimes) {
    lines.push(
      `| ${count(time.n)} | ${count(time.bytes)} | ${fixed(time.items, 2)} | ${fixed(time.items / (time.bytes / 1e6), 1)} | ${fixed(time.object, 2)} | ${fixed(time.bare, 2)} |`,
    )
  }
  lines.push('')
  lines.push('| measure | ours | bare Worker | ours/bare |')
  lines.push('|---|--:|--:|--:|')
  lines.push(
    `| first request to a new isolate: workerd's start (its spawn) to the first 200 of GET /items, ${count(cold.n)} items (median of ${cold.tries}) | ${fixed(cold.items.total)} ms | ${fixed(cold.bare.total)} ms | ${ratio(cold.items.total / cold.bare.total)} (target <= 1.5x: ${verdict(cold.items.total / cold.bare.total <= 1.5)}) |`,
  )
  lines.push(
    `| of which, from workerd ready to that 200 (the object's start, its ${count(cold.n)} items read, the request) | ${fixed(cold.items.first, 1)} ms | ${fixed(cold.bare.first, 1)} ms | |`,
  )
  lines.push(
    `| before that start, Miniflare's own work (it encodes the configuration, the modules in it, in Node; the platform does not) | ${fixed(cold.items.miniflare)} ms | ${fixed(cold.bare.miniflare)} ms | |`,
  )
  lines.push(
    `| the modules \`wrangler deploy\` uploads, raw / gzip (every start compiles them) | ${mib(size.start.raw)} / ${mib(size.start.gzip)} | | |`,
  )
  lines.push(
    `| what \`--env mongodb\` uploads beside them: the MongoDB store's module and the driver's, loaded only with CONNECTION_URL; the upload limit is 3 MiB gzip free, 10 MiB paid | ${mib(size.driver.raw)} / ${mib(size.driver.gzip)} | | |`,
  )
  lines.push('')
  lines.push('How the Workers were run and loaded:')
  lines.push('')
  for (const note of notes(options)) lines.push(`- ${note}`)
  lines.push('')
  return { section: lines, runs: runRows(runs) }
}

function notes(options) {
  return [
    'workerd, the Workers runtime, from the `workerd` package Miniflare depends on, run by Miniflare in a Node process of its own (`bench/worker-server.mjs`), compatibility date 2025-01-01 and `nodejs_compat` as in `items-service/wrangler.toml`. The module is handed to Miniflare as it is: given a path, Miniflare first parses the script in Node to find its imports, which the platform never does.',
    "Requests reach the Worker on a socket of workerd's own (Miniflare's `unsafeDirectSockets`), as the platform's front hands a request to a Worker. Not through Miniflare's default port, whose routing Worker copies each request twice, emulates the platform's compression and logs each request to Node through a loopback HTTP call; nor through `dispatchFetch`, which adds an HTTP client in the process that generates the load. Either would measure the harness.",
    "\"CPU\" of a Worker is workerd's process alone (the runtime: HTTP, the hop to the object, the isolate); Miniflare's Node process, which only passes the Worker's console on to the bench as it comes (not line by line, as Miniflare would by default), counts among the other processes.",
    `items-service: the ${options.n} movies are POSTed through the API once into its object's storage (a folder), and each start gets a copy of it; no setting but \`CORS_ORIGINS=*\`. Each request writes a log line (\`console.log\`), which Miniflare's process passes on to its stdout, piped to the bench and drained. Its modules are those \`wrangler deploy\` uploads (\`items-service/dist-worker/bundle/\`), without the MongoDB driver's; its static assets are not served here: the platform serves them without the Worker.`,
    `The bounds take the same movies as the \`DOCUMENTS\` binding. POST: ${options.warmupWrites} warm-up then ${options.writes} measured creations, on each Worker; the bounds append in memory, and those through an object also write the item as one row of their SQLite storage (a folder, as ours) before they answer.`,
    "First request to a new isolate: Miniflare made, workerd spawned and ready (it compiles the modules and runs the Worker's global scope before it serves), then one GET /items; the same with the bare Worker. Timed from workerd's spawn: Miniflare's work before it (encoding the configuration with the modules) is the local tool's, reported apart. A fresh copy of the stored movies each time.",
  ]
}

function runRows(runs) {
  const lines = [
    '| round | endpoint | n | Worker | requests | seconds | req/s | p50 ms | p99 ms | non-2xx | errors | answer bytes | workerd CPU | workerd CPU µs per answer | autocannon CPU | other processes CPU |',
    '|--:|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ]
  for (const run of runs) {
    lines.push(
      `| ${run.round} | ${run.endpoint} | ${count(run.n)} | ${run.label} | ${count(run.requests)} | ${fixed(run.duration, 1)} | ${fixed(run.rps)} | ${fixed(run.p50, 1)} | ${fixed(run.p99, 1)} | ${run.non2xx} | ${run.errors} | ${count(Math.round(run.bytesPerAnswer))} | ${fixed(run.cpu * 100)}% | ${fixed(cpuPerAnswer(run) * 1e6)} | ${fixed(run.loadCpu * 100)}% | ${fixed(run.othersCpu * 100)}% |`,
    )
  }
  return lines
}
