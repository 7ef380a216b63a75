// items-service's Worker read of one item, this checkout's build beside other builds, the bare
// Worker through an object (the bound of the Workers runtime's targets) and that bound with the
// promises of every answer (workers/promised-bound-worker.mjs), each in a workerd of its own as
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
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { median, postAll } from '../fixtures.mjs'
import { count, fixed, ratio } from '../format.mjs'
import { load } from '../load.mjs'
import { documents, movies } from '../movies.mjs'
import { closeConnections, send, stopAll } from '../servers.mjs'
import {
  bareWorker,
  bundleForWorkers,
  itemsWorker,
  snapshotItemsBundle,
  startWorker,
} from '../worker-servers.mjs'

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
const promisedBound = fileURLToPath(new URL('workers/promised-bound-worker.mjs', import.meta.url))

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
  const floor = await bundleForWorkers(promisedBound, join(work, 'floor', 'floor.js'))
  servers.promised = await startWorker(
    'the bound with the promises',
    { ...boundOn(join(work, 'state-promised')), script: floor, modulesRoot: join(work, 'floor') },
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
  const runs = []
  for (let turn = 0; turn < turns; turn++) {
    const order = [...names.slice(turn % names.length), ...names.slice(0, turn % names.length)]
    for (const name of order)
      runs.push({ turn, name, ...(await load(servers[name], stream(seconds))) })
    const line = runs.slice(-names.length).map((run) => `${run.name} ${fixed(run.rps)}`)
    say(`turn ${turn + 1}: ${line.join(', ')} req/s; load ${loadavg()[0].toFixed(2)}`)
  }
  const loadAfter = loadavg()
  await stopAll()

  const of = (name) => runs.filter((run) => run.name === name)
  const turnRatios = (name, over) =>
    of(name).map(
      (run) => run.rps / runs.find((one) => one.name === over && one.turn === run.turn).rps,
    )
  const spread = (shares) =>
    `${ratio(median(shares))} (${ratio(Math.min(...shares))}-${ratio(Math.max(...shares))})`
  const pooled = (name) => {
    const own = of(name)
    const requests = own.reduce((sum, run) => sum + run.requests, 0)
    const time = own.reduce((sum, run) => sum + run.duration, 0)
    const cpuMicros = median(own.map((run) => run.cpuPerAnswer))
    const wrong = own.reduce((sum, run) => sum + run.unexpected + run.errors, 0)
    return { rps: requests / time, cpuMicros, wrong }
  }
  const others = median(runs.map((run) => run.othersCpu))
  console.log(
    `\`GET /items/:id\` over ${count(n)} movies, ${turns} turns of ${seconds} s on each Worker, ` +
      `${values.generator}, 50 connections; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} ` +
      `before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after; other processes used a median ` +
      `${fixed(others * 100)}% of a core during a run\n`,
  )
  console.log(
    '| Worker | req/s | workerd µs per answer (median) | over through an object, per turn (low-high) | by CPU | unexpected or errors |',
  )
  console.log('| --- | --: | --: | --: | --: | --: |')
  const bound = pooled('object')
  for (const name of names) {
    const { rps, cpuMicros, wrong } = pooled(name)
    const share = name === 'object' ? '1.00x' : spread(turnRatios(name, 'object'))
    console.log(
      `| ${name} | ${count(Math.round(rps))} | ${fixed(cpuMicros)} | ${share} | ${ratio(bound.cpuMicros / cpuMicros)} | ${wrong} |`,
    )
  }
  for (const name of Object.keys(scripts).filter((one) => one !== 'this')) {
    const cpu = median(of('this').map((run, i) => of(name)[i].cpuPerAnswer / run.cpuPerAnswer))
    console.log(
      `\nthis over ${name}, per turn: ${spread(turnRatios('this', name))}; by CPU ${ratio(cpu)}`,
    )
  }
} finally {
  await stopAll()
  closeConnections()
  await rm(work, { recursive: true, force: true })
}
