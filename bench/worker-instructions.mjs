// Instructions workerd runs per answer, counted by valgrind's callgrind: steady where timed runs
// on this machine swing by half from one second to the next, by rate and by CPU alike
// (worker-windows.mjs). Each Worker runs under workerd alone (workerd.mjs), from a fresh copy of
// the same storage: for each kind of read, once answering `--warm` reads of it and once `--reads`
// more, the difference over `--reads` one answer's instructions, the start and the warm-up (the
// JIT's first compiles) left out; and once to its first answer of `GET /items` alone, the start
// (for items-service: the app loaded and made, its object woken and its store read). The bare
// Worker answers from memory. User-space instructions only, every thread's (the compilers'
// too): a system call, such as a log line's write, counts for little. 8 reads at a time.
// The Workers: the bare Worker through an object (the bound; bench/workers/bare-worker.mjs), the
// same whose object answers with items-service's headers, the floor of what the service's
// answers promise (Hono, the headers and the log line in front of that object;
// workers/hono-floor-worker.mjs), and items-service's default upload, its object's storage
// holding the same movies.
// Usage (needs valgrind):
//   npm run bench:workerinstructions [-- <other build>/items-service/dist-worker/bundle/entry.js]
//     [--reads 2000] [--warm 1000] [--n 1000] [--quick: the bare Worker, through an object and
//     items-service, reads of one item]
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { postAll } from './fixtures.mjs'
import { count, ratio } from './format.mjs'
import { documents, movies } from './movies.mjs'
import { closeConnections } from './servers.mjs'
import { bundleForWorkers, itemsWorker, snapshotItemsBundle } from './worker-servers.mjs'
import { startWorkerd } from './workerd.mjs'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    reads: { type: 'string', default: '2000' },
    warm: { type: 'string', default: '1000' },
    n: { type: 'string', default: '1000' },
    quick: { type: 'boolean', default: false },
  },
})
const reads = Number(values.reads)
const warm = Number(values.warm)
const list = movies(Number(values.n))

/** Each kind of read: the path of its i-th request. */
const kinds = {
  'GET /items/:id': (i) => `/items/${list[i % list.length].id}`,
  'GET /items': () => '/items',
}

/**
 * A GET over `agent`'s kept-alive connections, its answer's status once its body is read. A
 * connection that workerd closed as the request went out (under callgrind it runs many times
 * slower than its idle timeout assumes) is asked again, once, on a new one.
 */
function get(url, agent, retried = false) {
  return new Promise((resolve, reject) => {
    const retry = (error) => {
      if (!retried && (error.code === 'ECONNRESET' || error.message === 'socket hang up')) {
        // Not `agent`: it may hand out another connection that workerd has closed.
        resolve(get(url, false, true))
      } else reject(error)
    }
    const request = http.get(url, { agent }, (answer) => {
      answer.on('error', retry)
      answer.on('end', () => resolve(answer.statusCode))
      answer.resume()
    })
    request.on('error', retry)
  })
}

/** Sends `total` reads of `kind`, 8 at a time; each must answer 200. */
async function readAll(url, kind, total) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
  let next = 0
  const reader = async () => {
    while (next < total) {
      const path = kinds[kind](next++)
      const status = await get(`${url}${path}`, agent)
      if (status !== 200) throw new Error(`GET ${path}: ${status}`)
    }
  }
  try {
    await Promise.all(Array.from({ length: 8 }, reader))
  } finally {
    agent.destroy()
  }
}

const work = await mkdtemp(join(tmpdir(), 'worker-instructions-'))
try {
  // Every module beside the configuration, which embeds them by name.
  const script = await snapshotItemsBundle(work)
  const dir = dirname(script)
  const itemsModules = (entry) =>
    [entry, ...itemsWorker(entry).modules].map((path) => basename(path))
  await cp(new URL('workers/bare-worker.mjs', import.meta.url), join(dir, 'bare-worker.mjs'))
  await bundleForWorkers(
    new URL('workers/hono-floor-worker.mjs', import.meta.url).pathname,
    join(dir, 'hono-floor-worker.mjs'),
  )
  await writeFile(join(dir, 'documents.json'), JSON.stringify(documents(list)))
  const object = 'ItemsObject'
  const documentsBinding = '(name = "DOCUMENTS", text = embed "documents.json")'
  const itemsBinding = '(name = "ITEMS", durableObjectNamespace = "ItemsObject")'
  const serviceHeaders = '(name = "SERVICE_HEADERS", text = "true")'
  const items = (entry) => ({
    modules: itemsModules(entry),
    bindings: ['(name = "CORS_ORIGINS", text = "*")', itemsBinding],
    object,
    seeded: true,
  })
  const workers = {
    'bare Worker': { modules: ['bare-worker.mjs'], bindings: [documentsBinding] },
    'bare Worker through an object': {
      modules: ['bare-worker.mjs'],
      bindings: [documentsBinding, itemsBinding],
      object,
    },
    "the same, its object answering with the service's headers": {
      modules: ['bare-worker.mjs'],
      bindings: [documentsBinding, itemsBinding, serviceHeaders],
      object,
    },
    "Hono with the service's headers and line, in front of that object": {
      modules: ['hono-floor-worker.mjs'],
      bindings: [documentsBinding, itemsBinding, serviceHeaders],
      object,
    },
    'items-service, this build': items(script),
  }
  if (positionals[0]) {
    // The other build's modules beside this one's: their names carry their contents' hashes.
    const other = resolve(positionals[0])
    const otherDir = join(work, 'other-build')
    await cp(dirname(other), otherDir, { recursive: true })
    for (const name of itemsModules(join(otherDir, basename(other))).slice(1)) {
      await cp(join(otherDir, name), join(dir, name))
    }
    await cp(other, join(dir, 'other-entry.js'))
    workers['items-service, other build'] = {
      ...items(join(otherDir, basename(other))),
      modules: ['other-entry.js', ...itemsModules(join(otherDir, basename(other))).slice(1)],
    }
  }

  // The movies POSTed once through the API; each run of items-service gets a copy of that storage.
  const seeded = join(work, 'seeded')
  const seeding = await startWorkerd(workers['items-service, this build'], dir, seeded, '/items')
  try {
    await postAll(seeding, list)
  } finally {
    closeConnections()
    await seeding.stop()
  }

  let runs = 0
  /**
   * The instructions of one run of `worker` under callgrind, from workerd's spawn to its first
   * answer of `GET /items`, then `warm` reads of `kind` and `more` more of it.
   */
  async function counted(worker, kind, more = 0) {
    const storage = join(work, `storage-${++runs}`)
    if (worker.seeded) await cp(seeded, storage, { recursive: true })
    const out = join(work, `callgrind-${runs}.out`)
    const wrap = ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`, '--dump-instr=no']
    const running = await startWorkerd(worker, dir, storage, '/items', { wrap })
    try {
      if (kind) await readAll(running.url, kind, warm + more)
    } finally {
      // The connection `startWorkerd` asked on, closed before workerd is.
      closeConnections()
      await running.stop()
      await rm(storage, { recursive: true, force: true })
    }
    const total = /^(?:summary|totals): (\d+)/m.exec(await readFile(out, 'utf8'))?.[1]
    if (total === undefined) throw new Error(`${out}: no total`)
    return Number(total)
  }

  // A quick look: the two bounds and items-service, reads of one item.
  const quick = ['bare Worker', 'bare Worker through an object', 'items-service, this build']
  const counting = Object.entries(workers).filter(
    ([label]) => !values.quick || quick.includes(label),
  )
  const names = values.quick ? ['GET /items/:id'] : Object.keys(kinds)
  const perAnswer = {}
  const starts = {}
  for (const [label, worker] of counting) {
    starts[label] = await counted(worker)
    perAnswer[label] = {}
    for (const kind of names) {
      // With no warm-up, the run before the counted reads is the start.
      const base = warm === 0 ? starts[label] : await counted(worker, kind)
      perAnswer[label][kind] = ((await counted(worker, kind, reads)) - base) / reads
    }
  }

  console.log(
    `Instructions workerd runs per answer (callgrind, user space; ${count(reads)} reads of each kind after ${count(warm)} of it, 8 at a time; ${count(list.length)} movies), and from workerd's spawn to the first answer of \`GET /items\`:\n`,
  )
  const heads = names.map((kind) => `${kind} | over through an object`)
  console.log(`| Worker | ${heads.join(' | ')} | the start | over the bare Worker |`)
  console.log(`|---|${names.map(() => '--:|--:').join('|')}|--:|--:|`)
  const bound = perAnswer['bare Worker through an object']
  for (const [label, kindsOf] of Object.entries(perAnswer)) {
    const cells = names.map(
      (kind) =>
        `${count(Math.round(kindsOf[kind] / 1000))} k | ${ratio(kindsOf[kind] / bound[kind])}`,
    )
    const start = `${(starts[label] / 1e6).toFixed(1)} M | ${ratio(starts[label] / starts['bare Worker'])}`
    console.log(`| ${label} | ${cells.join(' | ')} | ${start} |`)
  }
  const target = (kind, goal) => `${count(Math.round(bound[kind] / goal / 1000))} k`
  const andList = values.quick ? '' : `, and 0.9x a list in ${target('GET /items', 0.9)}`
  console.log(
    `\nIf time followed the count, 0.8x of through an object's rate would be a read of one item in ${target('GET /items/:id', 0.8)} instructions or fewer${andList}.`,
  )
} finally {
  await rm(work, { recursive: true, force: true })
}
