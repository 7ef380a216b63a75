// How much of an isolate's memory items-service's object takes as its list grows, for npm run
// bench: the object is filled with n movies by the bench's seeding Worker (seed-items-worker.mjs,
// the store's own code), then the items Worker starts on that storage with workerd's inspector
// open, answers GET /items and one POST, and the inspector takes a heap snapshot (which collects
// the garbage first) and reads the isolate's heap: what the platform's 128 MB limit counts.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { monotonicMs } from './clock.mjs'
import { documents, movie, movies } from './movies.mjs'
import { freePort, send, stopServer } from './servers.mjs'
import { bundleForWorkers, itemsWorker, startWorker } from './worker-servers.mjs'

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
export async function measureHeap({ dir, script, sizes, say }) {
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
