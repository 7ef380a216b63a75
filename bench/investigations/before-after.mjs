// Two builds of items-service, this checkout's and another's, beside the bare bound in one run:
// the polled reads loaded on each in turn, the order reversed every round, then the cold start.
// Usage (the other build made first in a worktree of the revision to compare with):
//   git worktree add ../before <rev> && (cd ../before && npm ci && npm run build -w items-service)
//   node bench/investigations/before-after.mjs ../before/items-service/dist/server.js [--seconds 5] [--rounds 4]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { dataDir, median, prepare } from '../fixtures.mjs'
import { count, fixed, ratio } from '../format.mjs'
import { load } from '../load.mjs'
import { movies } from '../movies.mjs'
import {
  send,
  snapshotItemsBuild,
  startNode,
  startReference,
  stopAll,
  stopServer,
} from '../servers.mjs'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '4' } },
})
if (positionals.length !== 1) {
  console.error(
    'usage: node bench/investigations/before-after.mjs <other build>/items-service/dist/server.js',
  )
  process.exit(2)
}
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)
const work = await mkdtemp(join(tmpdir(), 'before-after-'))
// A copy of this checkout's build: every start of the run is the same build, rebuilt or not.
await snapshotItemsBuild(work)
const entries = {
  before: resolve(positionals[0]),
  after: join(work, 'items-service', 'dist', 'server.js'),
}
const list = movies(1000)
const files = await prepare(work, list)

const startBuild = async (name) =>
  startNode(name, [entries[name]], {
    env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: await dataDir(work, files.store) },
    ready: (out) => Number(/listening on http:\/\/[^:]+:(\d+)/.exec(out)?.[1]),
  })
const names = ['before', 'after', 'bound']
const start = (name) => (name === 'bound' ? startReference(files.documents) : startBuild(name))

try {
  const servers = {}
  for (const name of names) servers[name] = await start(name)
  const tags = {}
  for (const name of names) tags[name] = (await send(`${servers[name].url}/items`)).headers.etag
  const list200 =
    (headers = {}) =>
    () => [{ method: 'GET', path: '/items', headers }]
  // autocannon for the plain reads, as `npm run bench`; raw sockets where autocannon is the limit.
  const reads = [
    { read: '`GET /items`', cycle: list200(), generator: 'autocannon' },
    {
      read: '`GET /items/:id`',
      cycle: () => list.map(({ id }) => ({ method: 'GET', path: `/items/${id}` })),
      generator: 'autocannon',
    },
    {
      read: '`GET /items` → 304',
      cycle: (name) => list200({ 'if-none-match': tags[name] })(),
      expect: 304,
    },
    { read: '`GET /items`, br', cycle: list200({ 'accept-encoding': 'br' }) },
    { read: '`GET /items`, gzip', cycle: list200({ 'accept-encoding': 'gzip' }) },
  ]
  const best = Object.fromEntries(
    reads.map(({ read }) => [
      read,
      Object.fromEntries(names.map((name) => [name, { rps: 0, cpu: Number.POSITIVE_INFINITY }])),
    ]),
  )
  for (let round = 0; round < rounds; round++) {
    for (const { read, cycle, generator = 'sockets', expect = 200 } of reads) {
      for (const name of round % 2 ? [...names].reverse() : names) {
        const run = await load(servers[name], { cycle: cycle(name), seconds, generator, expect })
        const kept = best[read][name]
        kept.rps = Math.max(kept.rps, run.rps)
        kept.cpu = Math.min(kept.cpu, (1e6 * run.cpu) / run.rps)
      }
    }
  }
  for (const server of Object.values(servers)) await stopServer(server)
  const cold = Object.fromEntries(names.map((name) => [name, []]))
  for (let i = 0; i < 7; i++) {
    for (const name of i % 2 ? [...names].reverse() : names) {
      const server = await start(name)
      if ((await send(`${server.url}/items`)).status !== 200) throw new Error(`${name}: no list`)
      cold[name].push(performance.now() - server.started)
      await stopServer(server)
    }
  }
  console.log(
    `n = 1,000 movies, best of ${rounds} rounds of ${seconds} s; CPU: server µs per answer\n`,
  )
  console.log(
    '| read | before req/s (µs) | after req/s (µs) | bound req/s (µs) | after/before | before/bound | after/bound |',
  )
  console.log('| --- | --: | --: | --: | --: | --: | --: |')
  for (const [read, by] of Object.entries(best)) {
    const cell = ({ rps, cpu }) => `${count(Math.round(rps))} (${fixed(cpu)})`
    const { before, after, bound } = by
    console.log(
      `| ${read} | ${cell(before)} | ${cell(after)} | ${cell(bound)} | ${ratio(after.rps / before.rps)} | ${ratio(before.rps / bound.rps)} | ${ratio(after.rps / bound.rps)} |`,
    )
  }
  const ms = (name) => fixed(median(cold[name]))
  console.log(
    `\ncold start to the first 200 (median of 7): before ${ms('before')} ms, after ${ms('after')} ms, bound ${ms('bound')} ms`,
  )
} finally {
  await stopAll()
  await rm(work, { recursive: true, force: true })
}
