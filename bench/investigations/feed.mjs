// The change feed under many followers: the memory idle streams hold in the server, and how long
// each event takes from the mutation's request to every stream. The streams live in a child
// process (feed-client.mjs); the bench sends the mutations, so the server's CPU is its own.
import { fork } from 'node:child_process'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { monotonicMs } from '../clock.mjs'
import { dataDir } from '../fixtures.mjs'
import { settle } from '../load.mjs'
import {
  cpuSeconds,
  memoryMiB,
  send,
  startItemsService,
  startReference,
  stopServer,
} from '../servers.mjs'

const clientEntry = fileURLToPath(new URL('feed-client.mjs', import.meta.url))
const heapProbe = fileURLToPath(new URL('heap-probe.cjs', import.meta.url))
/** What a server is started with for the heap probe to write to `heapFile` (`readHeap`). */
const probed = (heapFile) => ({
  env: { BENCH_HEAP_FILE: heapFile },
  nodeArgs: ['--require', heapProbe],
})

/**
 * The heap of a server started with `heapFile`, after a full collection: SIGUSR2 asks the probe,
 * which writes `process.memoryUsage()` to the file. Resolves with it, in bytes.
 */
async function readHeap(server, heapFile, timeoutMs = 10_000) {
  await rm(heapFile, { force: true })
  server.child.kill('SIGUSR2')
  const until = performance.now() + timeoutMs
  while (performance.now() < until) {
    try {
      return JSON.parse(await readFile(heapFile, 'utf8'))
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  throw new Error(`${server.name} wrote no heap figures within ${timeoutMs} ms`)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** The feed client, with one request-answer exchange at a time and the `delivered` notices. */
function startClient() {
  const child = fork(clientEntry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const delivered = new Set()
  const waiting = new Map()
  let answer = null
  child.on('message', (message) => {
    if (message.delivered !== undefined) {
      delivered.add(message.delivered)
      waiting.get(message.delivered)?.()
    } else answer?.(message)
  })
  const ask = (message, timeoutMs = 120_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`feed client: no answer to ${Object.keys(message)}`)),
        timeoutMs,
      )
      answer = (reply) => {
        clearTimeout(timer)
        answer = null
        if (reply.failed) reject(new Error(reply.failed))
        else resolve(reply)
      }
      child.send(message)
    })
  /** Resolves true once every stream has its k-th event, false after `timeoutMs`. */
  const deliveredAll = (k, timeoutMs) =>
    delivered.has(k)
      ? Promise.resolve(true)
      : new Promise((resolve) => {
          const timer = setTimeout(() => resolve(false), timeoutMs)
          waiting.set(k, () => {
            clearTimeout(timer)
            resolve(true)
          })
        })
  const reset = () => {
    delivered.clear()
    waiting.clear()
  }
  return { child, ask, deliveredAll, reset }
}

/** PUTs that change a field of `ids[k]` each, one at a time, each once all streams had the last. */
async function mutate(server, client, ids, count, gapMs, base) {
  const sent = []
  const missed = []
  for (let k = 1; k <= count; k++) {
    const id = ids[(k - 1) % ids.length]
    sent.push({ at: monotonicMs(), id })
    const [answer, all] = await Promise.all([
      send(`${server.url}/items/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: { runtime: base + k },
      }),
      client.deliveredAll(k, 15_000),
    ])
    if (answer.status !== 200) throw new Error(`${server.name} PUT ${id}: ${answer.status}`)
    if (!all) missed.push(k)
    // A stream that stopped reading holds every later event too: stop rather than wait on each.
    if (missed.length === 3)
      throw new Error(`events ${missed.join(', ')} did not reach every stream`)
    await sleep(gapMs)
  }
  return { sent, missed }
}

/** Resident memory (VmRSS, as it is) and the heap after a full collection, in KiB. */
async function memory(server, heapFile) {
  await settle(server)
  const rss = memoryMiB(server.pid).rss * 1024
  const heap = await readHeap(server, heapFile)
  return { rss, heapUsed: heap.heapUsed / 1024, rssAfterGc: heap.rss / 1024 }
}

/**
 * Measures the feed of `server` (started with `heapFile`): a warm-up stream and 3 mutations,
 * memory before, `streams` idle streams opened, memory after, then `mutations` PUTs.
 */
export async function measureFeed({ server, heapFile, ids, streams, mutations, gapMs = 50 }) {
  const client = startClient()
  const url = `${server.url}/items/events`
  try {
    await client.ask({ open: { url, streams: 1 } })
    await mutate(server, client, ids.toReversed(), 3, gapMs, 2000)
    await client.ask({ close: true })
    client.reset()
    const before = await memory(server, heapFile)
    const { opened } = await client.ask({ open: { url, streams } })
    const after = await memory(server, heapFile)
    const cpuBefore = cpuSeconds(server.pid)
    const { sent, missed } = await mutate(server, client, ids, mutations, gapMs, 1000)
    const cpu = cpuSeconds(server.pid) - cpuBefore
    const { arrivals, closed, clientCpuMs } = await client.ask({ collect: true })
    return {
      streams,
      mutations,
      opened,
      before,
      after,
      closed,
      serverCpuPerPutMs: (cpu * 1000) / mutations,
      clientCpuPerPutMs: clientCpuMs / mutations,
      missed: missed.length,
      ...deliveries(sent, arrivals),
    }
  } finally {
    client.child.disconnect()
  }
}

/** Delivery times over every (stream, event) pair; an event must be the PUT's own item. */
function deliveries(sent, arrivals) {
  const times = []
  const lastPerEvent = sent.map(() => 0)
  let wrong = 0
  let absent = 0
  for (const stream of arrivals) {
    for (const [k, { at, id }] of sent.entries()) {
      const arrival = stream[k]
      if (arrival === undefined) {
        absent++
        continue
      }
      const [arrived, kind, itemId] = arrival
      if (kind !== 'updated' || itemId !== id) wrong++
      times.push(arrived - at)
      lastPerEvent[k] = Math.max(lastPerEvent[k], arrived - at)
    }
  }
  times.sort((a, b) => a - b)
  const at = (list, q) => list[Math.min(list.length - 1, Math.floor(q * list.length))]
  lastPerEvent.sort((a, b) => a - b)
  return {
    pairs: times.length,
    absent,
    wrong,
    p50: at(times, 0.5),
    p99: at(times, 0.99),
    max: times.at(-1),
    allReachedP50: at(lastPerEvent, 0.5),
  }
}

const labels = { items: 'items-service', bound: 'bound' }

/**
 * The feed of items-service, then of the bound, each started alone on `files` (as `prepare`
 * wrote them) with the heap probe. A server that does not serve it is noted as `{ missing }`.
 */
export async function measureFeeds({ work, files, ids, options, say }) {
  const feed = {}
  for (const key of ['items', 'bound']) {
    const heapFile = join(work, `heap-${key}.json`)
    const server =
      key === 'items'
        ? await startItemsService(await dataDir(work, files.store), probed(heapFile))
        : await startReference(files.documents, probed(heapFile))
    try {
      const { streams, mutations, gapMs } = options
      const f = await measureFeed({ server, heapFile, ids, streams, mutations, gapMs })
      feed[key] = f
      say(
        `change feed ${labels[key]}: ${f.opened.streams} streams, delivery p50 ${f.p50.toFixed(1)} p99 ${f.p99.toFixed(1)} max ${f.max.toFixed(1)} ms, ${((f.after.rss - f.before.rss) / f.streams).toFixed(1)} KiB RSS per stream`,
      )
    } catch (error) {
      feed[key] = { missing: error.message }
      say(`change feed ${labels[key]}: not measured, ${error.message}`)
    } finally {
      await stopServer(server)
    }
  }
  return feed
}
