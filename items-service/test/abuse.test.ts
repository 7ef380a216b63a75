import {
  consoleObjectsIn,
  killBuiltEntries,
  RawConnection,
  rawRequest,
  trickledPost,
} from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'
import { WorkerUnderTest } from './support/worker-under-test.js'

const movie = { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }

/** Opens `count` streams of the feed, each on a connection of its own; their first bytes read. */
async function holdStreams(url: string, count: number): Promise<RawConnection[]> {
  const held: RawConnection[] = []
  for (let n = 0; n < count; n += 1) {
    const connection = await RawConnection.open(url)
    await connection.send(rawRequest('GET', '/items/events', { host: 'items.test' }))
    held.push(connection)
  }
  return held
}

describe('the built service against one abusive client', () => {
  afterEach(killBuiltEntries)

  it('holds streams below its file limit, and still answers everyone else', async () => {
    const service = await startService(
      { DATA_DIR: await temporaryDataDir(), EVENTS_MAX_STREAMS_PER_CLIENT: '100000' },
      { openFiles: 512 },
    )
    // 512 files: 256 kept, 256 connections, three quarters of them for streams.
    expect(service.stdout).toContain('at most 192 event streams')
    const held = await holdStreams(service.url, 192)
    const past = await fetch(`${service.url}/items/events`)
    expect([past.status, (await past.json()).error]).toEqual([
      503,
      'too many event streams are open; try again later',
    ])
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
    const created = await fetch(`${service.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(movie),
    })
    expect(created.status).toBe(201)
    expect(await (await fetch(`${service.url}/items`)).json()).toHaveLength(1)
    for (const connection of held) connection.destroy()
  })

  it('lets one address hold 20 streams by default, not more under another name', async () => {
    const service = await startService({ DATA_DIR: await temporaryDataDir() })
    const held = await holdStreams(service.url, 20)
    const refused = await fetch(`${service.url}/items/events`)
    expect(refused.status).toBe(429)
    // Behind no proxy, a header cannot pass one client off as another.
    const disguised = await fetch(`${service.url}/items/events`, {
      headers: { 'x-forwarded-for': '198.51.100.7', 'cf-connecting-ip': '198.51.100.7' },
    })
    expect(disguised.status).toBe(429)
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
    for (const connection of held) connection.destroy()
  })

  // As Node's `fetch` and `http.request` may: the whole body written before the answer is read.
  // Refused after 64 KB, such a body must not end in a reset the client gets instead of its 413.
  it.each([
    ['node', async () => startService({ DATA_DIR: await temporaryDataDir() })],
    ['the Worker', () => WorkerUnderTest.start({})],
  ])(
    'answers 413 on %s to megabytes of body sent whole before the answer is read',
    async (_, start) => {
      const service = await start()
      try {
        const body = JSON.stringify({ ...movie, pad: 'x'.repeat(8 * 1024 * 1024) })
        const length = Buffer.byteLength(body)
        for (const framing of ['content-length', 'chunked'] as const) {
          const connection = await RawConnection.open(service.url)
          const [headers, bytes] =
            framing === 'chunked'
              ? [
                  { 'transfer-encoding': 'chunked' },
                  `${length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
                ]
              : [{ 'content-length': String(length) }, body]
          const head = { host: 'items.test', 'content-type': 'application/json', ...headers }
          const request = Buffer.concat([rawRequest('POST', '/items', head), Buffer.from(bytes)])
          expect(await connection.send(request), framing).toBeUndefined()
          const answer = await connection.answer()
          expect(answer?.status, framing).toBe(413)
          expect(JSON.parse(String(answer?.body))).toEqual({
            error: expect.stringContaining('larger'),
          })
          connection.destroy()
        }
        // Node's own fetch, whose upload races its read of the answer.
        for (let tries = 0; tries < 5; tries++) {
          const answer = await fetch(`${service.url}/items`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          })
          expect(answer.status).toBe(413)
          await answer.body?.cancel()
        }
        expect(await (await fetch(`${service.url}/items`)).json()).toEqual([])
      } finally {
        await service.stop()
      }
    },
  )

  it('answers 408 to a body that trickles in past BODY_TIMEOUT_MS, and closes its connection', async () => {
    const service = await startService({
      DATA_DIR: await temporaryDataDir(),
      BODY_TIMEOUT_MS: '1000',
    })
    const { answer, ms } = await trickledPost(service.url, '/items', JSON.stringify(movie))
    expect(answer?.status).toBe(408)
    expect(JSON.parse(String(answer?.body))).toEqual({
      error: 'the request body did not arrive within 1 s',
    })
    expect(ms).toBeLessThan(3_000)
    expect(answer?.headers.connection).toBe('close')
    expect(await (await fetch(`${service.url}/items`)).json()).toEqual([])
  })

  it('answers 408 to a chunked body that trickles in past BODY_TIMEOUT_MS', async () => {
    const service = await startService({
      DATA_DIR: await temporaryDataDir(),
      BODY_TIMEOUT_MS: '1000',
    })
    const slow = await RawConnection.open(service.url)
    const headers = {
      host: 'items.test',
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    }
    await slow.send(rawRequest('POST', '/items', headers))
    const trickle = setInterval(() => void slow.send('1\r\n{\r\n'), 200)
    const answer = await slow.answer({ waitMs: 5_000 })
    clearInterval(trickle)
    expect(answer?.status).toBe(408)
    expect(answer?.headers.connection).toBe('close')
  })

  it('answers 408 on the Worker too, to a body that trickles in past BODY_TIMEOUT_MS', async () => {
    const worker = await WorkerUnderTest.start({ BODY_TIMEOUT_MS: '1000' })
    try {
      const { answer, ms } = await trickledPost(worker.url, '/items', JSON.stringify(movie))
      expect(answer?.status).toBe(408)
      expect(JSON.parse(String(answer?.body))).toEqual({
        error: 'the request body did not arrive within 1 s',
      })
      expect(ms).toBeLessThan(3_000)
      expect(answer?.headers['x-content-type-options']).toBe('nosniff')
      // Its log object says how long the Worker waited for the body.
      const logged = consoleObjectsIn(worker.stdout).find(
        (entry) => entry.method === 'POST' && entry.status === 408,
      )
      expect(Number(logged?.durationMs)).toBeGreaterThanOrEqual(900)
      // Nothing of it reached the object.
      expect(await (await worker.request('/items')).json()).toEqual([])
    } finally {
      await worker.stop()
    }
  })

  it('counts streams per client address on the Worker too (cf-connecting-ip)', async () => {
    const worker = await WorkerUnderTest.start({ EVENTS_MAX_STREAMS_PER_CLIENT: '2' })
    try {
      const from = (address: string) =>
        worker.request('/items/events', { headers: { 'cf-connecting-ip': address } })
      const held = [await from('203.0.113.7'), await from('203.0.113.7')]
      expect(held.map((response) => response.status)).toEqual([200, 200])
      expect((await from('203.0.113.7')).status).toBe(429)
      const other = await from('198.51.100.1')
      expect(other.status).toBe(200)
      for (const response of [...held, other]) await response.body?.cancel()
    } finally {
      await worker.stop()
    }
  })
})
