// What each server spends on one small read, in instructions rather than time: every server of the
// small reads (the bound, the bound with the promises, Hono's floor, items-service, and
// items-service with its metrics and its JSON log on) run under valgrind's callgrind, a fixed
// number of reads sent to it after a long warm-up, and the count of a run of N reads less that of
// a run of none, over N. Counts do not move with the machine's load, where rates move by 3x.
// They leave out what the kernel does for a read (the socket's writev) and what a cache miss
// costs, so they are a floor for the JavaScript's share, not a rate.
//
//   apt-get install valgrind    (Debian's; not needed by anything else)
//   npm run build -w items-service
//   node bench/investigations/instructions.mjs [--reads 8000] [--warmup 20000]
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { dataDir, prepare } from '../fixtures.mjs'
import { count, ratio } from '../format.mjs'
import { movies } from '../movies.mjs'
import { send } from '../servers.mjs'
import { buildFloors } from '../small-reads.mjs'
import { requestBytes } from '../socket-load.mjs'

const { values } = parseArgs({
  options: {
    reads: { type: 'string', default: '8000' },
    warmup: { type: 'string', default: '20000' },
  },
})
const reads = Number(values.reads)
const warmup = Number(values.warmup)
const bench = fileURLToPath(new URL('../', import.meta.url))
const itemsEntry = fileURLToPath(new URL('../../items-service/dist/server.js', import.meta.url))

const work = await mkdtemp(join(tmpdir(), 'instructions-'))
const list = movies(1000)
const files = await prepare(work, list)
const floors = await buildFloors(work)

const itemsEnv = async (more = {}) => ({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: await dataDir(work, files.store),
  ...more,
})
/** Each server: its arguments and environment, made afresh for every run. */
const servers = {
  bound: async () => ({ args: [join(bench, 'reference-server.mjs'), files.documents] }),
  'bound with the promises': async () => ({
    args: [join(floors, 'promised-bound.mjs'), files.documents],
  }),
  "Hono's floor": async () => ({ args: [join(floors, 'hono-floor.mjs'), files.documents] }),
  'items-service': async () => ({ args: [itemsEntry], env: await itemsEnv() }),
  'items-service, METRICS_PORT set': async () => ({
    args: [itemsEntry],
    env: await itemsEnv({ METRICS_PORT: '0' }),
  }),
  'items-service, METRICS_PORT and LOG_FORMAT=json': async () => ({
    args: [itemsEntry],
    env: await itemsEnv({ METRICS_PORT: '0', LOG_FORMAT: 'json' }),
  }),
}

let runs = 0
/**
 * `reads` reads of `read` sent to `server` under callgrind after the warm-up: resolves with the
 * instructions the whole process ran, start and stop included, and the answers not as expected.
 */
async function counted(server, read, reads) {
  const { args, env = {} } = await servers[server]()
  const out = join(work, `callgrind-${++runs}`)
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${out}`,
      process.execPath,
      ...args,
    ],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const exited = new Promise((resolve) => child.on('exit', resolve))
  const port = await new Promise((resolve, reject) => {
    let head = ''
    const onData = (chunk) => {
      head += chunk
      const port = /listening on (?:http:\/\/[^:]+:)?(\d+)/.exec(head)?.[1]
      if (port === undefined) return
      // From here on the output is drained unread: a full pipe would stop the server.
      child.stdout.off('data', onData).resume()
      resolve(Number(port))
    }
    child.stdout.setEncoding('utf8').on('data', onData)
    child.stderr.resume()
    exited.then((code) => reject(new Error(`${server} exited with ${code}: ${head}`)))
  })
  const requests = await requestsOf(read, port)
  const expected = read.endsWith('304') ? 304 : 200
  let unexpected = await sendAll(port, requests, warmup, expected)
  if (reads > 0) unexpected += await sendAll(port, requests, reads, expected)
  child.kill('SIGTERM')
  await exited
  const counts = await readFile(out, 'utf8')
  return { instructions: Number(/^totals: (\d+)/m.exec(counts)[1]), unexpected }
}

/** A read's request bytes: every id in turn, with the tag that server gave it for a 304. */
async function requestsOf(read, port) {
  const requests = []
  for (const { id } of list) {
    const path = `/items/${encodeURIComponent(id)}`
    if (!read.endsWith('304')) {
      requests.push(requestBytes('127.0.0.1', { method: 'GET', path }))
      continue
    }
    const { headers } = await send(`http://127.0.0.1:${port}${path}`)
    requests.push(
      requestBytes('127.0.0.1', {
        method: 'GET',
        path,
        headers: { 'if-none-match': headers.etag },
      }),
    )
  }
  return requests
}

/** Exactly `total` requests, cycling through `requests`, over 10 keep-alive sockets. */
async function sendAll(port, requests, total, expected) {
  let left = total
  let next = 0
  let unexpected = 0
  const socket = () =>
    new Promise((resolve) => {
      const s = connect({ port, host: '127.0.0.1', noDelay: true })
      let buffered = Buffer.alloc(0)
      const ask = () => {
        if (left <= 0) return s.end()
        left--
        s.write(requests[next++ % requests.length])
      }
      s.on('connect', ask)
      s.on('data', (chunk) => {
        buffered = Buffer.concat([buffered, chunk])
        for (;;) {
          const end = buffered.indexOf('\r\n\r\n')
          if (end < 0) return
          const head = buffered.subarray(0, end).toString('latin1')
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
          if (buffered.length < end + 4 + length) return
          if (Number(head.slice(9, 12)) !== expected) unexpected++
          buffered = buffered.subarray(end + 4 + length)
          ask()
        }
      })
      s.on('close', resolve)
    })
  await Promise.all(Array.from({ length: 10 }, socket))
  return unexpected
}

const table = []
try {
  for (const read of ['GET /items/:id', 'GET /items/:id 304']) {
    let bound
    for (const server of Object.keys(servers)) {
      const none = await counted(server, read, 0)
      const some = await counted(server, read, reads)
      const perRead = (some.instructions - none.instructions) / reads
      bound ??= perRead
      const line = `${read} | ${server} | ${count(Math.round(perRead))} | ${ratio(bound / perRead)} | ${none.unexpected + some.unexpected}`
      console.error(line)
      table.push(`| ${line} |`)
    }
  }
} finally {
  await rm(work, { recursive: true, force: true })
}
console.log(`## Instructions per small read

${count(reads)} reads after ${count(warmup)} of warm-up, 1,000 movies, 10 keep-alive connections; each count is a run of that many reads less a run of none, under callgrind. "Bound over it" is the bound's count over the server's: read as a ratio of rates.

| read | server | instructions per read | bound over it | unexpected |
|---|---|--:|--:|--:|
${table.join('\n')}
`)
