// The sync section of RESULTS.md: 304 polls and compressed lists against the bound.
import { count, cpuPerAnswer, fixed, ratio, verdict } from './format.mjs'
import { smallReads } from './small-reads.mjs'
import { syncEndpoints } from './sync.mjs'

/** Held as the small reads are: a 304 as there, a compressed list as the list. */
const targets = {
  'GET /items 304': smallReads['GET /items 304'],
  'GET /items/:id 304': smallReads['GET /items/:id 304'],
  'GET /items br': smallReads['GET /items'],
  'GET /items gzip': smallReads['GET /items'],
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

/** One server's runs of a read taken together: all answers over all seconds. */
function pooled(runs) {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0)
  const seconds = runs.reduce((sum, run) => sum + run.duration, 0)
  const cpu = runs.reduce((sum, run) => sum + run.cpu * run.duration, 0)
  return {
    rps: requests / seconds,
    cpuPerAnswer: cpu / requests,
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    unexpected: runs.reduce((sum, run) => sum + run.unexpected, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    bodyBytes: runs[0].bodyBytes,
  }
}

/** ours/bound of each pair of runs taken one after the other: the lowest and the highest. */
function pairSpread(runs) {
  const shares = []
  for (const run of runs) {
    if (run.server !== 'items') continue
    const other = runs.find(
      (bound) => bound.server === 'bound' && bound.round === run.round && bound.turn === run.turn,
    )
    if (other) shares.push(run.rps / other.rps)
  }
  return `${ratio(Math.min(...shares))}-${ratio(Math.max(...shares))}`
}

function readRows({ syncRuns, syncMissing }) {
  const sizes = [...new Set(syncRuns.map((run) => run.n))].sort((a, b) => a - b)
  const lines = [
    '| read | n | ours req/s | ours p50 / p99 ms | bound req/s | bound p50 / p99 ms | body bytes ours / bound | unexpected status ours/bound | errors ours/bound | ours/bound | ours/bound by CPU | ours/bound per pair, low-high | target |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ]
  for (const endpoint of syncEndpoints) {
    const missing = syncMissing.get(endpoint)
    if (missing) {
      const cells = [endpoint, count(missing.n), `not measured: ${missing.why}`]
      lines.push(`| ${[...cells, ...Array(10).fill('')].join(' | ')} |`)
      continue
    }
    for (const n of sizes) {
      const runs = syncRuns.filter((run) => run.endpoint === endpoint && run.n === n)
      const own = runs.filter((run) => run.server === 'items')
      const bare = runs.filter((run) => run.server === 'bound')
      if (own.length === 0 || bare.length === 0) continue
      const items = pooled(own)
      const bound = pooled(bare)
      const share = items.rps / bound.rps
      const goal = targets[endpoint]
      lines.push(
        `| ${[
          endpoint,
          count(n),
          fixed(items.rps),
          `${fixed(items.p50, 1)} / ${fixed(items.p99, 1)}`,
          fixed(bound.rps),
          `${fixed(bound.p50, 1)} / ${fixed(bound.p99, 1)}`,
          `${count(items.bodyBytes)} / ${count(bound.bodyBytes)}`,
          `${items.unexpected} / ${bound.unexpected}`,
          `${items.errors} / ${bound.errors}`,
          ratio(share),
          ratio(bound.cpuPerAnswer / items.cpuPerAnswer),
          pairSpread(runs),
          goal ? `>= ${goal}x bound: ${verdict(share >= goal)}` : 'none set',
        ].join(' | ')} |`,
      )
    }
  }
  return lines
}

/** The Markdown lines of the sync section. */
export function syncReport({ options, syncRuns, syncMissing }) {
  const lines = ['## Sync: 304 polls and compressed lists', '']
  lines.push(
    'Measured in the same run, between `GET /items/:id` and `PUT /items/:id` of each round, on items-service and the ' +
      `bound only, loaded by \`bench/socket-load.mjs\` (below). For each read, a ${options.warmup} s warm-up on each server, then ` +
      `${options.seconds} s per server in ${options.seconds >= 3 ? 4 : 1} short runs that alternate between the two (ours then the bound, ` +
      'then the bound then ours, ...), so that a slow moment of the machine falls on both; the figures are those of all ' +
      "runs of every round together (req/s: all answers over all seconds; latencies: the median of the runs' " +
      'percentiles), and each pair of runs, one right after the other, gives one ours/bound, of which the lowest and ' +
      'highest are shown. ' +
      '"304": every request carries `If-None-Match` with the tag that server gave for that path ' +
      '(read just before), and must answer 304 without a body; `GET /items/:id 304` cycles through ' +
      `all ${options.n} ids. "br" and "gzip": \`Accept-Encoding: br\` (or \`gzip\`) on \`GET /items\`, checked ` +
      'first to answer that Content-Encoding, `Vary: Accept-Encoding`, a tag of its own and bytes that ' +
      'decompress to the plain list; the bound compresses with node:zlib at the levels items-service uses ' +
      '(brotli quality 5, gzip level 6) once per change of the list (at start, here): both send the same ' +
      'movies (their `_id`s aside) compressed alike. Any other status counts as unexpected.',
  )
  lines.push('')
  lines.push(...readRows({ syncRuns, syncMissing }))
  lines.push('')
  return lines
}

/** Every measured sync run, as the last table of the report has every other run. */
export function syncRunRows(syncRuns) {
  const lines = [
    '| round.turn | read | n | server | requests | seconds | req/s | p50 ms | p99 ms | expected status | unexpected | errors | answer bytes | server CPU | server CPU µs per answer | load generator CPU | other processes CPU |',
    '|--:|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ]
  for (const run of syncRuns) {
    lines.push(
      `| ${run.round}.${run.turn} | ${run.endpoint} | ${count(run.n)} | ${run.label} | ${count(run.requests)} | ${fixed(run.duration, 1)} | ${fixed(run.rps)} | ${fixed(run.p50, 1)} | ${fixed(run.p99, 1)} | ${run.expect} | ${run.unexpected} | ${run.errors} | ${count(Math.round(run.bytesPerAnswer))} | ${fixed(run.cpu * 100)}% | ${fixed(cpuPerAnswer(run) * 1e6)} | ${fixed(run.loadCpu * 100)}% | ${fixed(run.othersCpu * 100)}% |`,
    )
  }
  return lines
}
