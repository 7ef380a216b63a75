// How much of an isolate's memory items-service's object takes as its list grows: the object is filled with n movies by the bench's seeding Worker (seed-items-worker.mjs,
// the store's own code), then the items Worker starts on that storage with workerd's inspector
// open, answers GET /items and one POST, and the inspector takes a heap snapshot (which collects
// the garbage first) and reads the isolate's heap: what the platform's 128 MB limit counts.
//
//   npm run build:worker -w items-service && node bench/investigations/object-memory.mjs
//     [--sizes 1000,10000,50000,100000]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { monotonicMs } from '../clock.mjs'
import { count, fixed } from '../format.mjs'
import { documents, movie, movies } from '../movies.mjs'
import { freePort, send, stopServer } from '../servers.mjs'
import {
  bundleForWorkers,
  itemsWorker,
  snapshotItemsBundle,
  startWorker,
} from '../worker-servers.mjs'

const seeder = fileURLToPath(new URL('workers/seed-items-worker.mjs', import.meta.url))
const WebSocket = globalThis.WebSocket ?? (await import('ws')).WebSocket

/** The Chrome DevTools Protocol on the Worker's isolate: `call(method, params)`, `close()`. */
async function inspect(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json()
  const target = targets.find(({ id }) => id.startsWith('core:user'))
  if (!target)
    throw new Error(`no Worker among the inspector's targets: ${JSON.stringify(targets)}`)
  const socket = new WebSocket(target.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve)
    socket.addEventListener('error', reject)
  })
  let last = 0
  const pending = new Map()
  socket.addEventListener('message', ({ data }) => {
    const message = JSON.parse(String(data))
    pending.get(message.id)?.(message)
    pending.delete(message.id)
  })
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++last
      pending.set(id, ({ result, error }) =>
        error ? reject(new Error(`${method}: ${error.message}`)) : resolve(result),
      )
      socket.send(JSON.stringify({ id, method, params }))
    })
  return { call, close: () => socket.close() }
}

/** The seeding Worker, bundled with the store's code into `dir`; its path. */
const bundleSeeder = (dir) => bundleForWorkers(seeder, join(dir, 'seed-items-worker.js'))

/**
 * For each size: the isolate's JS heap and its ArrayBuffers (bytes), with the object holding
 * that many movies, right after it answered GET /items and one POST (garbage included) and after
 * a full collection; the list's bytes; and how long the isolate's first GET /items took (ms).
 */
async function measureHeap({ dir, script, sizes, say }) {
  const seed = await bundleSeeder(dir)
  const all = documents(movies(Math.max(...sizes)))
  const rows = []
  for (const n of sizes) {
    say(`workers: the object's heap with ${n} movies`)
    const persist = join(dir, `heap-${n}`)
    const seeding = await startWorker(
      'seeding Worker',
      { ...itemsWorker(seed, persist), modules: [] },
      dir,
    )
    const seeded = await send(seeding.url, { method: 'POST', body: all.slice(0, n) })
    await stopServer(seeding)
    if (seeded.text() !== String(n)) throw new Error(`seeding ${n} movies: ${seeded.text()}`)
    const inspectorPort = await freePort()
    const server = await startWorker(
      'items-service Worker',
      // Past ITEMS_MAX_COUNT's default (100,000), so that the largest size takes the POST too.
      { ...itemsWorker(script, persist, { ITEMS_MAX_COUNT: '1000000' }), inspectorPort },
      dir,
    )
    try {
      // The isolate's first request: the object starts and reads its n movies from storage.
      const startedAt = monotonicMs()
      const list = await send(`${server.url}/items`)
      const firstMs = monotonicMs() - startedAt
      const post = await send(`${server.url}/items`, { method: 'POST', body: movie(n) })
      // The list read twice more: from its second answer on, the Worker keeps it as a Blob.
      const again = [await send(`${server.url}/items`), await send(`${server.url}/items`)]
      if (list.status !== 200 || post.status !== 201 || again.some((read) => read.status !== 200)) {
        const reads = [list, ...again].map((read) => read.status).join(', ')
        throw new Error(`items with ${n} movies: GET ${reads}, POST ${post.status}`)
      }
      const inspector = await inspect(inspectorPort)
      try {
        const taken = async () => {
          const usage = await inspector.call('Runtime.getHeapUsage')
          return { heap: usage.usedSize, buffers: usage.backingStorageSize ?? 0 }
        }
        // Right after the write, its garbage included; then after a snapshot, which collects
        // the garbage first (its chunks are not needed).
        const afterWrite = await taken()
        await inspector.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
        rows.push({ n, listBytes: list.bytes, firstMs, afterWrite, kept: await taken() })
      } finally {
        inspector.close()
      }
    } finally {
      await stopServer(server)
    }
  }
  return rows
}

function heapReport(heap) {
  const lines = ["### The object's memory as the list grows", '']
  lines.push(
    "The items Worker under workerd with its inspector open, its object filled with n movies (the store's own `restore`, " +
      'through `bench/investigations/workers/seed-items-worker.mjs`), after one GET /items, one POST (which answers the whole ' +
      'list) and two GET /items more (from its second answer on, a list of 8 KiB to 8 MiB read again is kept as a ' +
      "Blob, a second copy): the isolate's JS heap and its ArrayBuffers (backing stores) as the inspector reports them " +
      '(`Runtime.getHeapUsage`), right after those with their garbage, and after a full collection (a heap ' +
      "snapshot makes one). The platform's limit is 128 MB per isolate. The first GET /items is the isolate's " +
      'first request, on a fresh workerd: the object starts and reads its list from storage (the inspector open).',
  )
  lines.push('')
  lines.push(
    '| movies | list bytes | first GET /items ms | right after those: heap + buffers = MB | after a collection: heap + buffers = MB |',
  )
  lines.push('|--:|--:|--:|--:|--:|')
  const mb = ({ heap, buffers }) =>
    `${fixed(heap / 1e6, 1)} + ${fixed(buffers / 1e6, 1)} = ${fixed((heap + buffers) / 1e6, 1)}`
  for (const row of heap) {
    lines.push(
      `| ${count(row.n)} | ${count(row.listBytes)} | ${fixed(row.firstMs, 1)} | ${mb(row.afterWrite)} | ${mb(row.kept)} |`,
    )
  }
  lines.push('')
  return lines
}

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '1000,10000,50000,100000' } },
})
const say = (line) => process.stderr.write(`${line}\n`)
const work = await mkdtemp(join(tmpdir(), 'object-memory-'))
try {
  const script = await snapshotItemsBundle(work)
  const sizes = values.sizes.split(',').map(Number)
  console.log(heapReport(await measureHeap({ dir: work, script, sizes, say })).join('\n'))
} finally {
  await rm(work, { recursive: true, force: true })
}
