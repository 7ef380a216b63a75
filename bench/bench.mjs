// npm run bench: items-service, a bare node:http bound and json-server 0.17.4 side by side on the
// same generated movies, loaded with autocannon; then the sync reads (304 polls, compressed
// lists) against the bound; then items-service's Worker under workerd against
// bare Workers (worker-bench.mjs); writes the tables to
// bench/RESULTS.md (a run with fewer or smaller figures, a quick look, to test-artifacts/bench.md).
//
//   node bench/bench.mjs [--n 1000] [--seconds 5] [--rounds 2] [--writes N] [--big 100000]
//                        [--out bench/RESULTS.md] [--quick]
//                        [--workers | --node]
//
// --workers measures the Workers runtime alone and writes its sections (by default to
// test-artifacts/bench-workers.md); --node measures all but the Workers runtime.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { dataDir, listed, median, prepare, startAll, timePut } from './fixtures.mjs'
import { load } from './load.mjs'
import { movie, movies } from './movies.mjs'
import { describeRun } from './notes.mjs'
import { parseOptions } from './options.mjs'
import { endpoints, report } from './report.mjs'
import { syncReport, syncRunRows } from './report-sync.mjs'
import { workerReport } from './report-worker.mjs'
import {
  closeConnections,
  killAllNow,
  memoryMiB,
  send,
  snapshotItemsBuild,
  startItemsService,
  startReference,
  stopAll,
  stopServer,
} from './servers.mjs'
import { measureSmallReads, smallReadsReport } from './small-reads.mjs'
import { measureSyncReads } from './sync.mjs'
import { measureWorkers } from './worker-bench.mjs'
import { snapshotItemsBundle } from './worker-servers.mjs'

const labels = { items: 'items-service', bound: 'bound', json: 'json-server' }

async function main() {
  const options = parseOptions()
  const started = new Date()
  const say = (line) => process.stderr.write(`${line}\n`)
  const work = await mkdtemp(join(tmpdir(), 'items-bench-'))
  const cleanup = async () => {
    await stopAll()
    closeConnections()
    await rm(work, { recursive: true, force: true })
  }
  // Bounded in time: a generous multiple of what the options should take, then stop everything.
  const expectedSeconds =
    options.rounds * 40 * (options.seconds + options.warmup + 2) + 240 + options.big / 1000
  const deadline = setTimeout(async () => {
    say(`bench: still running after ${Math.round(expectedSeconds * 3)} s; stopping every server`)
    await cleanup()
    process.exit(1)
  }, expectedSeconds * 3000)
  deadline.unref()
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, async () => {
      say(`bench: ${signal}, stopping every server`)
      await cleanup()
      process.exit(130)
    })
  }
  process.on('exit', killAllNow)

  try {
    const markdown = await measure(options, work, say, started)
    await mkdir(dirname(options.out), { recursive: true })
    await writeFile(options.out, `${markdown}\n`)
    process.stdout.write(`${markdown}\n`)
    say(`bench: wrote ${options.out}`)
  } finally {
    clearTimeout(deadline)
    await cleanup()
  }
}

/** The Workers runtime alone (`--workers`): its sections, and every run of it. */
async function measureWorkersOnly(options, work, say, started) {
  const workers = await measureWorkers({
    work,
    script: await snapshotItemsBundle(work),
    options,
    say,
    base: movies(options.n),
  })
  const { section, runs } = workerReport({ options, workers })
  const heading = `Run on ${started.toISOString().slice(0, 10)}, the Workers part alone (\`--workers\`): ${cpus().length} cores, Node ${process.version}.`
  return [heading, '', ...section, '## Every measured Worker run', '', ...runs, ''].join('\n')
}

async function measure(options, work, say, started) {
  if (options.workersOnly) return measureWorkersOnly(options, work, say, started)
  const { n, seconds, warmup, writes, warmupWrites, big } = options
  await snapshotItemsBuild(work)
  const workerScript = options.nodeOnly ? undefined : await snapshotItemsBundle(work)
  const large = n * 10
  const all = movies(Math.max(big, large))
  const base = all.slice(0, n)
  const baseIds = base.map((item) => item.id)
  const filesN = await prepare(work, base)
  const filesLarge = await prepare(work, all.slice(0, large))
  const filesBig = big === large ? filesLarge : await prepare(work, all.slice(0, big))
  const runs = []
  const syncRuns = []
  const syncMissing = new Map()
  const putTimes = new Map()
  const keepPut = (size, server, put) => {
    const row = putTimes.get(size) ?? { n: size, bytes: put.bytes }
    row[server] = Math.min(row[server] ?? Number.POSITIVE_INFINITY, put.ms)
    putTimes.set(size, row)
  }

  /** Warm-up, then the measured run, for every server in turn (so noise falls on all three). */
  const measureEndpoint = async (round, servers, endpoint, size, stream) => {
    for (const [key, server] of Object.entries(servers)) {
      const { warm, main } = stream(key)
      await load(server, warm)
      const run = await load(server, main)
      runs.push({ round, endpoint, n: size, server: key, label: labels[key], ...run })
      say(
        `round ${round} ${endpoint} n=${size} ${labels[key]}: ${run.rps.toFixed(0)} req/s, p99 ${run.p99} ms, unexpected status ${run.unexpected}, errors ${run.errors}`,
      )
    }
  }

  for (let round = 1; round <= options.rounds; round++) {
    // Phase 1, n items: every endpoint. items-service gets its movies through the API.
    say(`round ${round}: starting the servers with ${n} movies`)
    let servers = await startAll(work, filesN, base, { post: true })
    const list = [{ method: 'GET', path: '/items' }]
    await measureEndpoint(round, servers, 'GET /items', n, () => ({
      warm: { cycle: list, seconds: warmup },
      main: { cycle: list, seconds },
    }))
    const reads = baseIds.map((id) => ({ method: 'GET', path: `/items/${id}` }))
    await measureEndpoint(round, servers, 'GET /items/:id', n, () => ({
      warm: { cycle: reads, seconds: warmup },
      main: { cycle: reads, seconds },
    }))
    await measureSyncReads({ round, servers, n, ids: baseIds, options, say, syncRuns, syncMissing })
    // The whole item with one field changed (json-server's PUT replaces, ours merges); two
    // passes with different values, so that consecutive writes of an item change it.
    const updates = [1, 2].flatMap((pass) =>
      base.map((item, index) => ({
        method: 'PUT',
        path: `/items/${item.id}`,
        body: { ...item, rating: (((index + pass * 7) % 90) + 10) / 10 },
      })),
    )
    await measureEndpoint(round, servers, 'PUT /items/:id', n, () => ({
      warm: { cycle: updates, seconds: warmup },
      main: { cycle: updates, seconds },
    }))
    const added = Array.from({ length: warmupWrites + writes }, (_, k) =>
      movie(big + k, `new${String(k).padStart(7, '0')}`),
    )
    const creates = added.map((item) => ({ method: 'POST', path: '/items', body: item }))
    await measureEndpoint(round, servers, 'POST /items', n, () => ({
      warm: { once: creates.slice(0, warmupWrites) },
      main: { once: creates.slice(warmupWrites) },
    }))
    const removes = added.map((item) => ({ method: 'DELETE', path: `/items/${item.id}` }))
    await measureEndpoint(round, servers, 'DELETE /items/:id', n, () => ({
      warm: { once: removes.slice(0, warmupWrites) },
      main: { once: removes.slice(warmupWrites) },
    }))
    for (const [key, server] of Object.entries(servers)) {
      const left = await listed(server)
      if (left !== n)
        throw new Error(`${labels[key]} lists ${left} items after the writes, not ${n}`)
    }
    for (const key of ['items', 'bound'])
      keepPut(n, key, await timePut(servers[key], baseIds[0], options.putTries))
    await stopAll()

    // Phase 2, 10 n items: the list again. items-service starts from its datafile.
    say(`round ${round}: starting the servers with ${large} movies`)
    servers = await startAll(work, filesLarge, null, { post: false })
    await measureEndpoint(round, servers, 'GET /items', large, () => ({
      warm: { cycle: list, seconds: warmup },
      main: { cycle: list, seconds },
    }))
    for (const key of ['items', 'bound'])
      keepPut(large, key, await timePut(servers[key], baseIds[0], options.putTries))
    await stopAll()
  }

  // The small reads beside their floors: the bound, the bound with the promises, Hono's floor.
  const { smallTurns, smallSeconds } = options
  const smallRuns = await measureSmallReads({
    work,
    files: filesN,
    ids: baseIds,
    seconds: smallSeconds,
    warmup,
    turns: smallTurns,
    say,
  })

  // Cold start: spawn to the first 200 from GET /items, on a fresh copy of the data each time.
  const coldStarts = []
  for (const [size, files] of [
    [n, filesN],
    [big, filesBig],
  ]) {
    const times = { items: [], bound: [] }
    for (let i = 0; i < options.coldTries; i++) {
      // One server at a time, so that neither start competes with the other for a core.
      for (const key of ['items', 'bound']) {
        const server =
          key === 'items'
            ? await startItemsService(await dataDir(work, files.store))
            : await startReference(files.documents)
        const answer = await send(`${server.url}/items`)
        if (answer.status !== 200) throw new Error(`${server.name} GET /items: ${answer.status}`)
        times[key].push(performance.now() - server.started)
        await stopServer(server)
      }
    }
    coldStarts.push({
      n: size,
      tries: options.coldTries,
      items: median(times.items),
      bound: median(times.bound),
    })
    say(`cold start n=${size}: ours ${median(times.items).toFixed(0)} ms`)
  }

  // Memory and one PUT with `big` items.
  say(`starting items-service and the bound with ${big} movies`)
  const items = await startItemsService(await dataDir(work, filesBig.store))
  const bound = await startReference(filesBig.documents)
  const memory = { n: big }
  for (const [key, server] of [
    ['items', items],
    ['bound', bound],
  ]) {
    await send(`${server.url}/items`)
    memory[key] = memoryMiB(server.pid)
    keepPut(big, key, await timePut(server, baseIds[0], options.putTries))
  }
  const exits = await Promise.all([stopServer(items), stopServer(bound)])
  for (const [i, exit] of exits.entries()) {
    if (exit.code !== 0)
      say(`warning: ${['items-service', 'bound'][i]} exited with ${exit.signal ?? exit.code}`)
  }

  // The Workers runtime: items-service's Worker and its bounds.
  const workers = options.nodeOnly
    ? undefined
    : await measureWorkers({ work, script: workerScript, options, say, base })

  const { moves, loading } = describeRun(options, large)
  return report({
    options,
    runs,
    moves,
    coldStarts,
    memory,
    putTimes: [...putTimes.values()].sort((a, b) => a.n - b.n),
    loading,
    started,
    endpoints,
    small: smallReadsReport({ runs: smallRuns, n, seconds: smallSeconds, turns: smallTurns }),
    sync: {
      section: syncReport({ options, syncRuns, syncMissing }),
      runs: syncRunRows(syncRuns),
    },
    workers: workers && workerReport({ options, workers }),
  })
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error.stack ?? error}\n`)
  process.exitCode = 1
})
