// items-service's Worker read of one item, this checkout's build beside other builds, the bare
// Worker through an object (the bound of the Workers runtime's targets) and that bound with the
// promises of every answer (../workers/promised-bound-worker.mjs), each in a workerd of its own as
// `npm run bench` runs them. `GET /items/:id` over every id is loaded on each in turn, in
// short turns whose order turns by one each time; each turn gives each Worker's rate over the
// bound's in that turn, and the table has the median of those ratios (and of this build's over
// each other build's), with the Workers' own CPU per answer and the machine's load meanwhile.
//
//   (cd <other checkout> && npm run build -w items-service && npm run build:worker -w items-service)
//   node bench/investigations/worker-reads.mjs --build before=<other checkout>/items-service/dist-worker/bundle-mongodb
//     [--build <name>=<folder> ...] [--turns 12] [--seconds 2] [--n 1000] [--generator autocannon|sockets]
//
// This checkout's Worker is built first when its build is older than its Node build (as `npm run
// bench` does). Each build's modules are copied before the run, so rebuilding meanwhile changes
// nothing.
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { median, postAll } from '../fixtures.mjs'
import { count, fixed, ratio } from '../format.mjs'
import { load } from '../load.mjs'
import { documents, movies } from '../movies.mjs'
import { closeConnections, send, stopAll } from '../servers.mjs'
import { loadInTurns, pooled, turnRatio } from '../turns.mjs'
import { bareWorker, itemsWorker, snapshotItemsBundle, startWorker } from '../worker-servers.mjs'
import { promisedBoundWorker } from '../worker-small-reads.mjs'

const { values } = parseArgs({
  options: {
    build: { type: 'string', multiple: true, default: [] },
    turns: { type: 'string', default: '12' },
    seconds: { type: 'string', default: '2' },
    n: { type: 'string', default: '1000' },
    generator: { type: 'string', default: 'autocannon' },
  },
})
const turns = Number(values.turns)
const seconds = Number(values.seconds)
const n = Number(values.n)
const say = (line) => process.stderr.write(`${line}\n`)

/** A build's modules copied under `work/<name>`: the path of its entry. */
async function snapshotBuild(folder, work, name) {
  const dir = join(work, name)
  await mkdir(dir, { recursive: true })
  for (const file of await readdir(folder)) {
    if (file.endsWith('.js')) await copyFile(join(folder, file), join(dir, file))
  }
  return join(dir, 'entry.js')
}

const work = await mkdtemp(join(tmpdir(), 'worker-reads-'))
try {
  const scripts = { this: await snapshotItemsBundle(work) }
  for (const given of values.build) {
    const [name, folder] = given.split('=')
    scripts[name] = await snapshotBuild(resolve(folder), work, name)
  }
  const list = movies(n)
  const servers = {}
  for (const [name, script] of Object.entries(scripts)) {
    say(`${name}: storing ${n} movies`)
    servers[name] = await startWorker(name, itemsWorker(script, join(work, `state-${name}`)), work)
    await postAll(servers[name], list)
  }
  const boundOn = (persist) =>
    bareWorker(JSON.stringify(documents(list)), { throughObject: true, persist })
  servers.object = await startWorker(
    'bare Worker through an object',
    boundOn(join(work, 'state-object')),
    work,
  )
  servers.promised = await startWorker(
    'the bound with the promises',
    await promisedBoundWorker(JSON.stringify(documents(list)), join(work, 'state-promised'), work),
    work,
  )
  const names = Object.keys(servers)
  for (const name of names) {
    const answer = await send(`${servers[name].url}/items/${list[0].id}`)
    if (answer.status !== 200) throw new Error(`${name}: GET /items/:id answered ${answer.status}`)
  }
  const stream = (time) => ({
    cycle: list.map(({ id }) => ({ method: 'GET', path: `/items/${encodeURIComponent(id)}` })),
    seconds: time,
    generator: values.generator,
  })
  for (const name of names) await load(servers[name], stream(seconds))
  const loadBefore = loadavg()
  const label = 'one item'
  const runs = await loadInTurns(servers, () => stream(seconds), { turns, say, label })
  const loadAfter = loadavg()
  await stopAll()

  const of = (name) => runs.filter((run) => run.server === name)
  const spread = ({ median: middle, low, high }) =>
    `${ratio(middle)} (${ratio(low)}-${ratio(high)})`
  const others = median(runs.map((run) => run.othersCpu))
  console.log(
    `\`GET /items/:id\` over ${count(n)} movies, ${turns} turns of ${seconds} s on each Worker, ` +
      `${values.generator}, 50 connections; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} ` +
      `before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after; other processes used a median ` +
      `${fixed(others * 100)}% of a core during a run\n`,
  )
  console.log(
    '| Worker | req/s | workerd µs per answer | over through an object, per turn (low-high) | by CPU | unexpected or errors |',
  )
  console.log('| --- | --: | --: | --: | --: | --: |')
  const bound = pooled(of('object'))
  for (const name of names) {
    const { rps, cpuMicros, unexpected } = pooled(of(name))
    const share = name === 'object' ? '1.00x' : spread(turnRatio(runs, name, 'object'))
    console.log(
      `| ${name} | ${count(Math.round(rps))} | ${fixed(cpuMicros)} | ${share} | ${ratio(bound.cpuMicros / cpuMicros)} | ${unexpected} |`,
    )
  }
  for (const name of Object.keys(scripts).filter((one) => one !== 'this')) {
    const cpu = median(of('this').map((run, i) => of(name)[i].cpuPerAnswer / run.cpuPerAnswer))
    console.log(
      `\nthis over ${name}, per turn: ${spread(turnRatio(runs, 'this', name))}; by CPU ${ratio(cpu)}`,
    )
  }
} finally {
  await stopAll()
  closeConnections()
  await rm(work, { recursive: true, force: true })
}
