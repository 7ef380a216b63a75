import { consoleObjectsIn, MongoStandIn } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Item } from '../src/store/item-store.js'
import { WorkerUnderTest } from './support/worker-under-test.js'

const json = { 'content-type': 'application/json' }
const movie = (n: number) => ({ id: `tt${n}`, name: `Movie ${n}`, genre: 'Drama' })
const connectTimeoutMs = 1_000
/** The timeout, and time for the runtime's scheduling on a busy machine. */
const boundMs = connectTimeoutMs + 1_500

/** Posts one movie; answers the status and the list. */
async function post(worker: WorkerUnderTest, n: number) {
  const response = await worker.request('/items', {
    method: 'POST',
    headers: json,
    body: JSON.stringify(movie(n)),
  })
  return { status: response.status, list: (await response.json()) as Item[] }
}

// The MongoDB driver runs inside workerd (bundled by wrangler for nodejs_compat), its sockets
// opened by the collection's Durable Object, which keeps the client across requests.
describe('the Worker on MongoDB, through the wire-protocol stand-in', () => {
  let standIn: MongoStandIn
  let worker: WorkerUnderTest
  /** The connections the driver opened: each starts with a handshake carrying `client`. */
  const handshakes = () => standIn.commands.filter(({ body }) => body.client !== undefined).length

  beforeAll(async () => {
    standIn = await MongoStandIn.start({ setName: 'rs0' })
    worker = await WorkerUnderTest.start(
      { CONNECTION_URL: standIn.url, CONNECT_TIMEOUT_MS: String(connectTimeoutMs) },
      undefined,
      'mongodb',
    )
  })
  afterAll(async () => {
    await worker?.stop()
    await standIn?.close()
  })

  it('connects, lists and writes, keeping one client for request after request', async () => {
    const first = await worker.request('/items')
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual([])
    const opened = handshakes()
    expect(opened).toBeGreaterThan(0)

    const created = await post(worker, 1)
    expect(created.status).toBe(201)
    expect(created.list).toEqual([{ _id: expect.stringMatching(/^[0-9a-f]{24}$/), ...movie(1) }])
    for (let n = 2; n <= 4; n++) expect((await post(worker, n)).status).toBe(201)
    for (const route of ['/items', '/healthz', '/items?genre=Drama', '/items']) {
      expect((await worker.request(route)).status, route).toBe(200)
    }
    const listed = (await (await worker.request('/items')).json()) as Item[]
    expect(listed.map((item) => item.id)).toEqual(['tt1', 'tt2', 'tt3', 'tt4'])
    // Nine more requests on the client the first one opened. A client per request would open
    // its monitor's connection and a pooled one for each (18 handshakes or more); the one client
    // may reopen its monitor's connection when a heartbeat outlasts CONNECT_TIMEOUT_MS on a busy
    // machine, a handshake each time, never one per request.
    expect(handshakes() - opened).toBeLessThan(9)
    expect(standIn.received('createIndexes')).toHaveLength(1)
    expect(standIn.received('insert')).toHaveLength(4)
    // The client held across requests gathers nothing: the runtime's sockets add a listener at
    // every socket timeout they arm, so the store sets none on Workers.
    expect(worker.stdout + worker.stderr).not.toMatch(/memory leak|MaxListeners/)
  })

  it.each([
    // A create's first command is the read of the newest `_id` (a find): its insert never goes.
    ['answers heartbeats only', 'commands', ['find', 'ping']],
    // New connections wait for their handshake: what waits for one never reaches the server.
    ['answers nothing', 'all', []],
  ] as const)(
    'answers 503 within CONNECT_TIMEOUT_MS while the server %s, then recovers',
    async (_, what, sent) => {
      expect((await worker.request('/items')).status).toBe(200)
      const before = standIn.commandNames().length
      standIn.stall(what)
      const requests = [
        () => worker.request('/items'),
        () => worker.request('/healthz'),
        () =>
          worker.request('/items', {
            method: 'POST',
            headers: json,
            body: '{"id":"s","name":"s","genre":"g"}',
          }),
      ]
      const answers = await Promise.all(
        requests.map(async (send) => {
          const started = performance.now()
          const response = await send()
          return {
            status: response.status,
            body: await response.json(),
            ms: performance.now() - started,
          }
        }),
      )
      for (const { status, body, ms } of answers) {
        expect({ status, body }).toEqual({ status: 503, body: { error: 'database unavailable' } })
        expect(ms).toBeLessThan(boundMs)
      }
      // What reached the database and got no answer: nothing failed before asking it.
      expect(standIn.commandNames().slice(before)).toEqual(expect.arrayContaining([...sent]))

      standIn.answer()
      await vi.waitFor(
        async () => {
          expect((await worker.request('/healthz')).status).toBe(200)
          expect((await worker.request('/items')).status).toBe(200)
        },
        { timeout: 10_000, interval: 200 },
      )
    },
  )
})

describe('the Worker whose MongoDB does not answer its first request', () => {
  it('answers 503 within CONNECT_TIMEOUT_MS, and opens the store on a later request', async () => {
    const standIn = await MongoStandIn.start({ setName: 'rs0' })
    const worker = await WorkerUnderTest.start(
      { CONNECTION_URL: standIn.url, CONNECT_TIMEOUT_MS: String(connectTimeoutMs) },
      undefined,
      'mongodb',
    )
    try {
      standIn.stall('all')
      const started = performance.now()
      const refused = await worker.request('/items')
      expect(refused.status).toBe(503)
      // As the app answers a database that does not answer, with a request line.
      expect(await refused.json()).toEqual({ error: 'database unavailable' })
      expect(performance.now() - started).toBeLessThan(boundMs)
      // The log says why; the client is told only that the database does not answer.
      expect(worker.stderr).toMatch(/items-service cannot start: .*timed out/)
      expect(consoleObjectsIn(worker.stdout)).toContainEqual(
        expect.objectContaining({ method: 'GET', path: '/items', status: 503 }),
      )

      standIn.answer()
      await vi.waitFor(async () => expect((await worker.request('/items')).status).toBe(200), {
        timeout: 10_000,
        interval: 200,
      })
    } finally {
      await worker.stop()
      await standIn.close()
    }
  })
})
