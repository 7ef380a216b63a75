import { type BuiltEntry, killBuiltEntries, MongoStandIn } from '@movies-and-mail/test-kit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sleep, startService } from './support/built-service.js'

const connectTimeoutMs = 1_000
/** The timeout, and 120 requests' worth of scheduling on a slow machine. */
const boundMs = connectTimeoutMs + 2_000
const json = { 'content-type': 'application/json' }

/** One of the three requests that need the database, in turn, with its status, body and time. */
async function request(service: BuiltEntry, n: number) {
  const init = [
    { path: '/items' },
    { path: '/healthz' },
    {
      path: '/items',
      method: 'POST',
      headers: json,
      body: JSON.stringify({ id: `tt${n}`, name: `Movie ${n}`, genre: 'Drama' }),
    },
  ][n % 3] as RequestInit & { path: string }
  const started = performance.now()
  const response = await fetch(service.url + init.path, init)
  const body = await response.json()
  return {
    request: `${init.method ?? 'GET'} ${init.path}`,
    status: response.status,
    body,
    ms: performance.now() - started,
  }
}

/** Retries `check` until it passes or `ms` have passed, then throws its last failure. */
async function eventually(check: () => Promise<void>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await sleep(100)
    }
  }
}

describe('items-service on a MongoDB that stops answering', () => {
  afterEach(killBuiltEntries)
  let standIn: MongoStandIn
  beforeEach(async () => {
    standIn = await MongoStandIn.start()
  })
  afterEach(() => standIn.close())

  it.each([
    // A create's first command is the read of the newest `_id` (a find): its insert never goes.
    ['answers heartbeats only', 'commands', ['find', 'ping']],
    ['answers nothing', 'all', []],
  ] as const)(
    'answers 120 requests at once with 503 within CONNECT_TIMEOUT_MS while it %s, then recovers',
    async (_, what, sent) => {
      const service = await startService({
        CONNECTION_URL: standIn.url,
        CONNECT_TIMEOUT_MS: String(connectTimeoutMs),
      })
      standIn.stall(what)
      const responses = await Promise.all(
        Array.from({ length: 120 }, (_, n) => request(service, n)),
      )
      for (const { request, status, body, ms } of responses) {
        expect({ request, status, body }).toEqual({
          request,
          status: 503,
          body: { error: 'database unavailable' },
        })
        expect(ms, request).toBeLessThan(boundMs)
      }
      // What reached the database and got no answer: nothing failed before asking it.
      expect(standIn.commandNames()).toEqual(expect.arrayContaining([...sent]))

      standIn.answer()
      await eventually(async () => {
        expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
        expect((await fetch(`${service.url}/items`)).status).toBe(200)
      })
      // The driver warns about options it ignores; the service sets none.
      expect(service.stderr).not.toContain('Warning')
    },
  )
})
