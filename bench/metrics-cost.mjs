// npm run bench:metrics: what Prometheus metrics (METRICS_PORT) and JSON log lines
// (LOG_FORMAT=json) cost items-service's small reads, against the same build without them, in one
// run: one-item reads and 304 polls loaded on each server in turn, the order reversed every
// round, best of the rounds; then one scrape, whose count of one-item reads must be what the
// load generator counted. The promise: one-item reads with metrics at 0.9x or better.
//
//   node bench/metrics-cost.mjs [--seconds 5] [--rounds 4] [--n 1000]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { dataDir, prepare } from './fixtures.mjs'
import { count, fixed, ratio, verdict } from './format.mjs'
import { load } from './load.mjs'
import { movies } from './movies.mjs'
import { send, snapshotItemsBuild, startItemsService, stopAll } from './servers.mjs'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '4' },
    n: { type: 'string', default: '1000' },
  },
})
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)
const say = (line) => process.stderr.write(`${line}\n`)
const work = await mkdtemp(join(tmpdir(), 'metrics-cost-'))
await snapshotItemsBuild(work)
const list = movies(Number(values.n))
const files = await prepare(work, list)

const variants = {
  plain: {},
  metrics: { METRICS_PORT: '0' },
  'metrics + JSON log': { METRICS_PORT: '0', LOG_FORMAT: 'json' },
}
const names = Object.keys(variants)

try {
  const servers = {}
  for (const name of names) {
    servers[name] = await startItemsService(await dataDir(work, files.store), {
      env: variants[name],
    })
  }
  const tags = {}
  for (const name of names) tags[name] = (await send(`${servers[name].url}/items`)).headers.etag
  const reads = [
    {
      read: '`GET /items/:id`',
      cycle: () => list.map(({ id }) => ({ method: 'GET', path: `/items/${id}` })),
      expect: 200,
    },
    {
      read: '`GET /items` → 304',
      cycle: (name) => [
        { method: 'GET', path: '/items', headers: { 'if-none-match': tags[name] } },
      ],
      expect: 304,
    },
  ]
  const best = Object.fromEntries(
    reads.map(({ read }) => [
      read,
      Object.fromEntries(names.map((name) => [name, { rps: 0, cpu: Number.POSITIVE_INFINITY }])),
    ]),
  )
  const oneItemReads = Object.fromEntries(names.map((name) => [name, 0]))
  for (let round = 0; round < rounds; round++) {
    for (const { read, cycle, expect } of reads) {
      for (const name of round % 2 ? [...names].reverse() : names) {
        const run = await load(servers[name], { cycle: cycle(name), seconds, expect })
        if (read === reads[0].read) oneItemReads[name] += run.requests
        const kept = best[read][name]
        kept.rps = Math.max(kept.rps, run.rps)
        kept.cpu = Math.min(kept.cpu, (1e6 * run.cpu) / run.rps)
        say(`round ${round + 1} ${read} ${name}: ${count(Math.round(run.rps))} req/s`)
      }
    }
  }
  // The scrape counts what was served: a sanity check that the metrics saw every read.
  const counted = {}
  for (const name of names.filter((name) => name !== 'plain')) {
    const port = /metrics: http:\/\/[^:]+:(\d+)/.exec(servers[name].head)?.[1]
    const text = (await send(`http://127.0.0.1:${port}/metrics`)).body().toString()
    const line =
      /^http_server_request_duration_seconds_count\{http_request_method="GET",http_response_status_code="200",http_route="\/items\/:id"\} (\d+)$/m.exec(
        text,
      )
    counted[name] = Number(line?.[1])
  }
  console.log(
    `n = ${count(list.length)} movies, best of ${rounds} rounds of ${seconds} s, autocannon at 50 connections; CPU: server µs per answer\n`,
  )
  console.log(
    `| read | ${names.map((name) => `${name} req/s (µs)`).join(' | ')} | metrics/plain | metrics + JSON/plain |`,
  )
  console.log(`| --- | ${names.map(() => '--:').join(' | ')} | --: | --: |`)
  for (const [read, by] of Object.entries(best)) {
    const cell = ({ rps, cpu }) => `${count(Math.round(rps))} (${fixed(cpu)})`
    const cells = names.map((name) => cell(by[name]))
    const versus = (name) => ratio(by[name].rps / by.plain.rps)
    console.log(
      `| ${read} | ${cells.join(' | ')} | ${versus('metrics')} | ${versus('metrics + JSON log')} |`,
    )
  }
  const oneItem = best[reads[0].read]
  console.log(
    `\none-item reads with metrics at 0.9x or better of without: ${verdict(oneItem.metrics.rps >= 0.9 * oneItem.plain.rps)}`,
  )
  for (const [name, n] of Object.entries(counted)) {
    console.log(
      `${name}: the scrape counted ${count(n)} one-item reads answered 200; the load generator, ${count(oneItemReads[name])}`,
    )
  }
} finally {
  await stopAll()
  await rm(work, { recursive: true, force: true })
}
