// Instructions per answer, counted by valgrind's callgrind in each server process: far steadier
// than timed runs on a shared machine, though the JIT's background threads are counted too, so
// repeated runs can differ by a fifth for the smallest servers: compare within one run.
// Each server runs under callgrind with counting off, is warmed up, then counts `--reads` reads
// of each kind (8 at a time). User-space instructions only: a system call counts for little.
// The servers run side by side: what is counted is each process's own work.
// Usage (needs valgrind: `apt-get install valgrind`):
//   node bench/instructions.mjs [<other build>/items-service/dist/server.js] [--reads 2000]
import { execFile, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs, promisify } from 'node:util'
import { dataDir, prepare } from './fixtures.mjs'
import { count } from './format.mjs'
import { movies } from './movies.mjs'
import { snapshotItemsBuild } from './servers.mjs'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { reads: { type: 'string', default: '2000' } },
})
const reads = Number(values.reads)
const run = promisify(execFile)
const here = import.meta.dirname
const work = await mkdtemp(join(tmpdir(), 'instructions-'))
const list = movies(1000)
const files = await prepare(work, list)
await snapshotItemsBuild(work)

const servers = [
  { name: 'bound (bare node:http)', args: [join(here, 'reference-server.mjs'), files.documents] },
  { name: 'Hono app, no middleware', args: [join(here, 'hono-floor-server.mjs'), files.documents] },
  { name: 'items-service, this build', entry: join(work, 'items-service', 'dist', 'server.js') },
]
if (positionals[0])
  servers.push({ name: 'items-service, other build', entry: resolve(positionals[0]) })

/** Reads of each kind, by name: a request's path and headers for the i-th read. */
const kinds = {
  'GET /items/:id': (i) => ({ path: `/items/${list[i % list.length].id}` }),
  'GET /items → 304': (_i, tag) => ({ path: '/items', headers: { 'if-none-match': tag } }),
}

function get(port, { path, headers = {} }, agent, retried = false) {
  return new Promise((done, fail) => {
    const request = http.get({ host: '127.0.0.1', port, path, headers, agent }, (answer) => {
      answer.resume()
      answer.on('end', () => done(answer))
    })
    request.on('error', (error) => {
      // A kept-alive socket the server closed as the request went out (a server under
      // callgrind runs many times slower than its idle timeout assumes): sent again, once, on a
      // new socket, as Node's documentation has clients of kept-alive connections do.
      if (!retried && request.reusedSocket && error.code === 'ECONNRESET') {
        done(get(port, { path, headers }, agent, true))
      } else fail(error)
    })
  })
}

async function readMany(port, kind, tag, n) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
  let next = 0
  const stream = async () => {
    while (next < n) {
      const answer = await get(port, kinds[kind](next++, tag), agent)
      if (answer.statusCode >= 400) throw new Error(`${kind}: ${answer.statusCode}`)
    }
  }
  await Promise.all(Array.from({ length: 8 }, stream))
  agent.destroy()
}

async function countServer({ args, entry }, out) {
  const env = entry
    ? { PORT: '0', HOST: '127.0.0.1', DATA_DIR: await dataDir(work, files.store) }
    : {}
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${out}/cg.%p`,
      process.execPath,
    ].concat(entry ? [entry] : args),
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const port = await new Promise((ready, fail) => {
    let text = ''
    child.stdout.on('data', (chunk) => {
      text += chunk
      const found = /listening on (?:http:\/\/[^:]+:)?(\d+)/.exec(text)
      if (found) ready(Number(found[1]))
    })
    child.on('exit', (code) => fail(new Error(`exited with ${code} before listening`)))
  })
  child.stdout.resume()
  child.stderr.resume()
  const tag = (await get(port, { path: '/items' })).headers.etag
  // vgdb names its pipes after HOST: the control must see the server's.
  const control = (...flags) =>
    run('callgrind_control', [...flags, String(child.pid)], { env: { ...process.env, ...env } })
  const figures = {}
  for (const kind of Object.keys(kinds)) {
    if (!tag && kind.includes('304')) continue
    await readMany(port, kind, tag, reads)
    await control('-i', 'on')
    await control('-z')
    await readMany(port, kind, tag, reads)
    await control('-d', kind.replace(/\W+/g, '-'))
    await control('-i', 'off')
    const dump = readdirSync(out)
      .filter((file) => file.startsWith(`cg.${child.pid}.`))
      .sort()
      .at(-1)
    const total = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(out, dump), 'utf8'))
    figures[kind] = Number(total?.[1]) / reads
  }
  child.kill('SIGTERM')
  await new Promise((exited) => child.on('exit', exited))
  return figures
}

try {
  const rows = await Promise.all(
    servers.map(async (server) => [
      server.name,
      await countServer(server, await mkdtemp(join(work, 'callgrind-'))),
    ]),
  )
  console.log(
    `Instructions per answer (callgrind, ${count(reads)} reads of each kind, n = 1,000)\n`,
  )
  console.log(`| server | ${Object.keys(kinds).join(' | ')} |`)
  console.log(`| --- |${' --: |'.repeat(Object.keys(kinds).length)}`)
  for (const [name, figures] of rows) {
    const cells = Object.keys(kinds).map((kind) =>
      figures[kind] === undefined ? '—' : `${count(Math.round(figures[kind] / 1000))} k`,
    )
    console.log(`| ${name} | ${cells.join(' | ')} |`)
  }
} finally {
  await rm(work, { recursive: true, force: true })
}
