// Where a one-item read's CPU goes, user against system time, and what being slower costs by
// itself: the bound, the bound made slower by 8 and 16 µs of busy work a read (busy-bound.mjs),
// the bound with the promises, Hono's floor and items-service, the read loaded on each in turn
// (50 connections, bench/socket-load.mjs), the order turned every turn. Each server's user and
// system µs per answer are read from /proc (clock ticks, so a run of seconds, not less); a ratio
// is the median over turns of the server's rate over the bound's in that turn.
//
//   npm run build -w items-service
//   node bench/investigations/cpu-split.mjs [--seconds 3] [--turns 6]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { dataDir, median, prepare } from '../fixtures.mjs'
import { count, fixed, ratio } from '../format.mjs'
import { load } from '../load.mjs'
import { movies } from '../movies.mjs'
import {
  closeConnections,
  cpuTimes,
  snapshotItemsBuild,
  startItemsService,
  startNode,
  startReference,
  stopAll,
} from '../servers.mjs'
import { buildFloors } from '../small-reads.mjs'

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '3' }, turns: { type: 'string', default: '6' } },
})
const seconds = Number(values.seconds)
const turns = Number(values.turns)
const busyBound = fileURLToPath(new URL('busy-bound.mjs', import.meta.url))
const ready = (out) => Number(/listening on (\d+)/.exec(out)?.[1])

const work = await mkdtemp(join(tmpdir(), 'cpu-split-'))
try {
  await snapshotItemsBuild(work)
  const list = movies(1000)
  const files = await prepare(work, list)
  const floors = await buildFloors(work)
  const floor = (name) => startNode(name, [join(floors, `${name}.mjs`), files.documents], { ready })
  const busy = (us) =>
    startNode(`bound, ${us} µs busy`, [busyBound, files.documents], {
      env: { BUSY_US: String(us) },
      ready,
    })
  const servers = {
    bound: await startReference(files.documents),
    'bound, 8 µs busy': await busy(8),
    'bound, 16 µs busy': await busy(16),
    'bound with the promises': await floor('promised-bound'),
    "Hono's floor": await floor('hono-floor'),
    'items-service': await startItemsService(await dataDir(work, files.store)),
  }
  const names = Object.keys(servers)
  const cycle = list.map(({ id }) => ({ method: 'GET', path: `/items/${encodeURIComponent(id)}` }))
  const stream = (time) => ({ cycle, seconds: time, generator: 'sockets' })
  for (const name of names) await load(servers[name], stream(1))
  const runs = Object.fromEntries(names.map((name) => [name, []]))
  for (let turn = 0; turn < turns; turn++) {
    const order = [...names.slice(turn % names.length), ...names.slice(0, turn % names.length)]
    const rates = {}
    for (const name of order) {
      const { pid } = servers[name]
      const before = cpuTimes(pid)
      const run = await load(servers[name], stream(seconds))
      const after = cpuTimes(pid)
      const perAnswer = (key) => ((after[key] - before[key]) * 1e6) / run.requests
      rates[name] = run.rps
      runs[name].push({ rps: run.rps, user: perAnswer('user'), system: perAnswer('system') })
    }
    for (const name of names) runs[name].at(-1).ratio = rates[name] / rates.bound
    process.stderr.write(
      `turn ${turn + 1}: ${names.map((n) => `${n} ${fixed(rates[n])}`).join(', ')}\n`,
    )
  }
  const of = (name, key) => median(runs[name].map((run) => run[key]))
  console.log(`## User and system time of one item's read

1,000 movies, \`GET /items/:id\` over every id, 50 connections, ${turns} turns of ${seconds} s; medians over turns.

| server | req/s | user µs per answer | system µs per answer | ratio to the bound |
| --- | --: | --: | --: | --: |
${names.map((name) => `| ${name} | ${count(Math.round(of(name, 'rps')))} | ${fixed(of(name, 'user'), 1)} | ${fixed(of(name, 'system'), 1)} | ${ratio(of(name, 'ratio'))} |`).join('\n')}
`)
} finally {
  await stopAll()
  closeConnections()
  await rm(work, { recursive: true, force: true })
}
