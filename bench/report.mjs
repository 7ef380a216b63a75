// Turns the measurements into the Markdown that is printed and written to the out file.
import { cpus, release } from 'node:os'
import { count, cpuPerAnswer, fixed, ratio, verdict } from './format.mjs'

const servers = ['items', 'bound', 'json']

/** The row keys, in table order. */
export const endpoints = [
  'GET /items',
  'GET /items/:id',
  'POST /items',
  'PUT /items/:id',
  'DELETE /items/:id',
]

/** Keeps, per endpoint, size and server, the run with the highest req/s. */
export function bestOf(runs) {
  const best = new Map()
  for (const run of runs) {
    const key = `${run.endpoint}|${run.n}|${run.server}`
    if (!best.has(key) || best.get(key).rps < run.rps) best.set(key, run)
  }
  return best
}

function target(row, best) {
  const { endpoint, n, items, bound, json } = row
  if (endpoint === 'GET /items') {
    const vsBound = items.rps / bound.rps
    const vsJson = items.rps / json.rps
    return `>= 0.9x bound, >= 20x json-server: ${verdict(vsBound >= 0.9 && vsJson >= 20)}`
  }
  if (endpoint === 'GET /items/:id')
    return `>= 0.6x bound: ${verdict(items.rps / bound.rps >= 0.6)}`
  const post = best.get(`POST /items|${n}|bound`)
  const share = items.rps / post.rps
  return `>= 0.8x bound POST: ${ratio(share)}, ${verdict(share >= 0.8)}`
}

/**
 * The Markdown report; `sync` holds the lines of the sync section and of its runs' table.
 */
export function report({
  options,
  runs,
  moves,
  coldStarts,
  memory,
  putTimes,
  loading,
  started,
  small,
  sync,
  workers,
}) {
  const best = bestOf(runs)
  const lines = []
  const cpu = cpus()
  lines.push(
    '# Benchmark: items-service, a bare node:http bound, json-server; and on the Workers runtime',
  )
  lines.push('')
  lines.push(
    `Run on ${started.toISOString().slice(0, 10)}: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ` +
      `Node ${process.version}, Linux ${release()}. Options: \`--n ${options.n} --seconds ${options.seconds} ` +
      `--rounds ${options.rounds} --writes ${options.writes} --big ${options.big}\`.`,
  )
  lines.push('')
  lines.push(
    `autocannon, ${options.connections} connections, a ${options.warmup} s warm-up (or ${options.warmupWrites} writes) ` +
      'before every measured run, all servers on 127.0.0.1 and the load generator in one process on the same machine. ' +
      `Best of ${options.rounds} round${options.rounds > 1 ? 's' : ''}: for each server, endpoint and size, the round ` +
      'with the highest req/s is shown, with that run\'s latencies. "ours" is items-service; "bound" is the bare ' +
      'node:http server serving cached bytes. "ours/bound by CPU" is the bound\'s server CPU time per answer over ' +
      'ours: the ratio the two would reach if each server, not the load generator or a busy machine, set the pace.',
  )
  lines.push('')
  const others = runs.reduce((sum, run) => sum + run.othersCpu, 0) / runs.length
  lines.push(
    `The machine is shared: during the measured runs, other processes used ${fixed(others * 100)}% CPU on average ` +
      `(of ${cpu.length * 100}%), so absolute figures are what was left to this bench; the ratios come from runs ` +
      'interleaved server by server, and the last table has every run with its CPU shares.',
  )
  lines.push('')
  lines.push(
    '| endpoint | n | ours req/s | ours p50 / p99 ms | bound req/s | bound p50 / p99 ms | json-server req/s | json-server p50 / p99 ms | non-2xx ours/bound/js | errors ours/bound/js | ours/bound | ours/bound by CPU | ours/json-server | target |',
  )
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|')
  const sizes = [...new Set(runs.map((run) => run.n))].sort((a, b) => a - b)
  for (const endpoint of endpoints) {
    for (const n of sizes) {
      const row = { endpoint, n }
      for (const server of servers) row[server] = best.get(`${endpoint}|${n}|${server}`)
      if (!row.items || !row.bound || !row.json) continue
      const cells = [endpoint, count(n)]
      for (const server of servers) {
        const run = row[server]
        cells.push(fixed(run.rps), `${fixed(run.p50, 1)} / ${fixed(run.p99, 1)}`)
      }
      cells.push(servers.map((server) => row[server].non2xx).join(' / '))
      cells.push(servers.map((server) => row[server].errors).join(' / '))
      cells.push(
        ratio(row.items.rps / row.bound.rps),
        ratio(cpuPerAnswer(row.bound) / cpuPerAnswer(row.items)),
        ratio(row.items.rps / row.json.rps),
      )
      cells.push(target(row, best))
      lines.push(`| ${cells.join(' | ')} |`)
    }
  }
  lines.push('')
  lines.push(
    'How n moves during a round (the same for every server, since writes are counted, not timed):',
  )
  for (const move of moves) lines.push(`- ${move}`)
  lines.push('')

  lines.push('## Start, memory, and the time of one PUT')
  lines.push('')
  lines.push('| measure | n | ours | bound | target |')
  lines.push('|---|---|--:|--:|---|')
  for (const cold of coldStarts) {
    const goal = cold.n === options.n ? `<= 300 ms: ${verdict(cold.items <= 300)}` : ''
    lines.push(
      `| cold start, spawn to first 200 from GET /items (median of ${cold.tries}) | ${count(cold.n)} | ${fixed(cold.items, 0)} ms | ${fixed(cold.bound, 0)} ms | ${goal} |`,
    )
  }
  lines.push(
    `| RSS after GET /items (peak in brackets) | ${count(memory.n)} | ${fixed(memory.items.rss)} MiB (${fixed(memory.items.peak)}) | ${fixed(memory.bound.rss)} MiB (${fixed(memory.bound.peak)}) | <= 250 MB: ${verdict((memory.items.rss * 1048576) / 1e6 <= 250)} |`,
  )
  lines.push('')
  lines.push(
    `One PUT, sequential on a kept-alive connection, median of ${options.putTries}; its answer is the whole list:`,
  )
  lines.push('')
  lines.push('| n | answer bytes | ours ms | ours ms per MB | bound ms | bound ms per MB |')
  lines.push('|--:|--:|--:|--:|--:|--:|')
  for (const put of putTimes) {
    const mb = put.bytes / 1e6
    lines.push(
      `| ${count(put.n)} | ${count(put.bytes)} | ${fixed(put.items, 2)} | ${fixed(put.items / mb, 1)} | ${fixed(put.bound, 2)} | ${fixed(put.bound / mb, 1)} |`,
    )
  }
  const [first, ...rest] = putTimes.filter((put) => put.n >= options.n * 10)
  if (first && rest.length > 0) {
    const last = rest.at(-1)
    const growth = last.items / last.bytes / (first.items / first.bytes)
    lines.push('')
    lines.push(
      `Time per byte of one PUT at n = ${count(last.n)} is ${ratio(growth)} that at n = ${count(first.n)} ` +
        `(time grows with the bytes sent, no faster, when this is at most about 1x): ${verdict(growth <= 1.25)}.`,
    )
  }
  lines.push('')
  lines.push(...small)
  lines.push(...sync.section)
  lines.push(...(workers?.section ?? []))
  lines.push('## How the servers were run and loaded')
  lines.push('')
  for (const line of loading) lines.push(`- ${line}`)
  lines.push('')
  lines.push('## Every measured run')
  lines.push('')
  lines.push(
    '| round | endpoint | n | server | requests | seconds | req/s | p50 ms | p99 ms | non-2xx | errors | answer bytes | server CPU | server CPU µs per answer | autocannon CPU | other processes CPU |',
  )
  lines.push('|--:|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|')
  for (const run of runs) {
    lines.push(
      `| ${run.round} | ${run.endpoint} | ${count(run.n)} | ${run.label} | ${count(run.requests)} | ${fixed(run.duration, 1)} | ${fixed(run.rps)} | ${fixed(run.p50, 1)} | ${fixed(run.p99, 1)} | ${run.non2xx} | ${run.errors} | ${count(Math.round(run.bytesPerAnswer))} | ${fixed(run.cpu * 100)}% | ${fixed(cpuPerAnswer(run) * 1e6)} | ${fixed(run.loadCpu * 100)}% | ${fixed(run.othersCpu * 100)}% |`,
    )
  }
  lines.push('')
  if (sync.runs.length > 2) {
    lines.push('## Every measured sync run')
    lines.push('')
    lines.push(...sync.runs)
    lines.push('')
  }
  if (workers) {
    lines.push('## Every measured Worker run')
    lines.push('')
    lines.push(...workers.runs)
    lines.push('')
  }
  return lines.join('\n')
}
