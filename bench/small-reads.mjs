// The small reads beside their floors, in one run: the bare bound, the bound with the promises
// of every answer (request id, nosniff, CORS, the tag, one batched log line), Hono's floor (no
// middleware, cached bytes) and items-service, on the same movies. Each read is loaded on the
// four in turn, the order turned by one each time, with bench/socket-load.mjs; a turn's four runs
// give each server's ratio to the bound, and the table has the median of those ratios.
//
//   node bench/small-reads.mjs [--n 1000] [--seconds 2] [--turns 8]   (build items-service first)
//
// `npm run bench` runs it too, inside its own run (measureSmallReads).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'
import { dataDir, prepare } from './fixtures.mjs'
import { count, fixed, ratio, verdict } from './format.mjs'
import { load } from './load.mjs'
import { movies } from './movies.mjs'
import {
  closeConnections,
  send,
  snapshotItemsBuild,
  startItemsService,
  startNode,
  startReference,
  stopAll,
  stopServer,
} from './servers.mjs'
import { loadInTurns, pooled, turnRatio } from './turns.mjs'

const floors = fileURLToPath(new URL('floors/', import.meta.url))

/** The servers, in table order, and what the report calls them. */
export const smallReadServers = {
  bound: 'bound',
  promised: 'bound with the promises',
  floor: "Hono's floor",
  items: 'items-service',
}

/**
 * The reads and the least ratio to the bound each is held to (DESIGN.md, "Routes and the polled
 * reads"): a 304 costs what one item costs, the same pipeline with no body, and is held alike.
 */
export const smallReads = {
  'GET /items/:id': 0.6,
  'GET /items/:id 304': 0.6,
  'GET /items 304': 0.6,
  'GET /items': 0.9,
}

/** Bundles the two floors (they use http-kit's TypeScript) into `work/floors/`. */
export async function buildFloors(work) {
  const outdir = join(work, 'floors')
  await build({
    entryPoints: [join(floors, 'promised-bound.mjs'), join(floors, 'hono-floor.mjs')],
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  })
  return outdir
}

const startFloor = (outdir, name, documents) =>
  startNode(name, [join(outdir, `${name}.mjs`), documents], {
    ready: (out) => Number(/listening on (\d+)/.exec(out)?.[1]),
  })

/** Each read's requests for `server`: every id in turn, with its own tag for a 304. */
async function requestsOf(read, server, ids) {
  const paths = read.startsWith('GET /items/:id')
    ? ids.map((id) => `/items/${encodeURIComponent(id)}`)
    : ['/items']
  if (!read.endsWith('304')) return { cycle: paths.map((path) => ({ method: 'GET', path })) }
  const cycle = []
  for (const path of paths) {
    const answer = await send(`${server.url}${path}`)
    if (answer.status !== 200 || !answer.headers.etag)
      throw new Error(`${server.name} GET ${path}: ${answer.status}, tag ${answer.headers.etag}`)
    cycle.push({ method: 'GET', path, headers: { 'if-none-match': answer.headers.etag } })
  }
  return { cycle, expect: 304 }
}

/**
 * Starts the four servers on `files` (prepared by fixtures.mjs), loads every read on each in
 * `turns` turns of `seconds` after a warm-up, stops them; resolves with every run.
 */
export async function measureSmallReads({ work, files, ids, seconds, warmup, turns, say }) {
  const outdir = await buildFloors(work)
  const servers = {
    bound: await startReference(files.documents),
    promised: await startFloor(outdir, 'promised-bound', files.documents),
    floor: await startFloor(outdir, 'hono-floor', files.documents),
    items: await startItemsService(await dataDir(work, files.store)),
  }
  const names = Object.keys(servers)
  const runs = []
  try {
    for (const read of Object.keys(smallReads)) {
      const plans = {}
      for (const name of names) plans[name] = await requestsOf(read, servers[name], ids)
      const stream = (name, time) => ({ ...plans[name], seconds: time, generator: 'sockets' })
      for (const name of names) await load(servers[name], stream(name, warmup))
      const label = `small reads ${read}`
      const own = await loadInTurns(servers, (name) => stream(name, seconds), { turns, say, label })
      for (const run of own) runs.push({ read, ...run })
    }
  } finally {
    for (const server of Object.values(servers)) await stopServer(server)
  }
  return runs
}

/** The Markdown lines of the small reads' section. */
export function smallReadsReport({ runs, n, seconds, turns }) {
  const names = Object.keys(smallReadServers)
  const lines = ['## The small reads beside their floors', '']
  lines.push(
    `n = ${count(n)}; each read loaded on the four servers in turn, ${turns} turns of ${seconds} s each, the order ` +
      'turned by one server every turn, with `bench/socket-load.mjs` (50 connections). "bound with the promises": ' +
      'the bound plus the headers every answer of items-service carries (request id, nosniff, CORS, the tag) and ' +
      "one log line per request, batched, made with http-kit's code (`bench/floors/promised-bound.mjs`); \"Hono's " +
      'floor": a Hono app with no middleware answering cached bytes with one plain header object ' +
      "(`bench/floors/hono-floor.mjs`). A cell is the rate of all runs together and the server's CPU µs per " +
      "answer; a ratio is the median over turns of the server's rate over the bound's in that turn (lowest-highest " +
      'after it). A 304 carries the tag that server gave for that path; one item cycles through every id.',
  )
  lines.push('')
  lines.push(
    `| read | ${names.map((name) => `${smallReadServers[name]} req/s (µs)`).join(' | ')} | promises/bound | floor/bound | ours/bound (low-high) | ours/bound by CPU | unexpected or errors | target |`,
  )
  lines.push(`|---|${names.map(() => '--:|').join('')}--:|--:|--:|--:|--:|---|`)
  for (const [read, goal] of Object.entries(smallReads)) {
    const own = runs.filter((run) => run.read === read)
    if (own.length === 0) continue
    const by = Object.fromEntries(
      names.map((name) => [name, pooled(own.filter((run) => run.server === name))]),
    )
    const ours = turnRatio(own, 'items')
    const cells = [
      read,
      ...names.map((name) => `${fixed(by[name].rps)} (${fixed(by[name].cpuMicros)})`),
      ratio(turnRatio(own, 'promised').median),
      ratio(turnRatio(own, 'floor').median),
      `${ratio(ours.median)} (${ratio(ours.low)}-${ratio(ours.high)})`,
      ratio(by.bound.cpuMicros / by.items.cpuMicros),
      names.map((name) => by[name].unexpected).join(' / '),
      `>= ${goal}x bound: ${verdict(ours.median >= goal)}`,
    ]
    lines.push(`| ${cells.join(' | ')} |`)
  }
  lines.push('')
  return lines
}

async function main() {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '1000' },
      seconds: { type: 'string', default: '2' },
      turns: { type: 'string', default: '8' },
    },
  })
  const n = Number(values.n)
  const seconds = Number(values.seconds)
  const turns = Number(values.turns)
  const work = await mkdtemp(join(tmpdir(), 'small-reads-'))
  try {
    await snapshotItemsBuild(work)
    const list = movies(n)
    const files = await prepare(work, list)
    const ids = list.map((item) => item.id)
    const say = (line) => process.stderr.write(`${line}\n`)
    const runs = await measureSmallReads({ work, files, ids, seconds, warmup: 1, turns, say })
    process.stdout.write(`${smallReadsReport({ runs, n, seconds, turns }).join('\n')}\n`)
  } finally {
    await stopAll()
    closeConnections()
    await rm(work, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
