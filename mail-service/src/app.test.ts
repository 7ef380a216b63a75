import { describe, expect, it } from 'vitest'
import { apiKey, sendMail, testApp } from '../test/support/test-app.js'

describe('the app', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const t = await testApp()
    const response = await t.app.request('/nowhere')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'no route for GET /nowhere' })
    await t.cleanup()
  })

  it.each([
    ['GET', '/sendmail', 'POST, OPTIONS'],
    ['PUT', '/sendmail', 'POST, OPTIONS'],
    ['DELETE', '/maillog', 'GET, HEAD, OPTIONS'],
    ['POST', '/healthz', 'GET, HEAD, OPTIONS'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const t = await testApp()
    const response = await t.app.request(path, { method, headers: { 'x-apikey': apiKey } })
    expect([response.status, response.headers.get('allow')]).toEqual([405, allow])
    expect(await response.json()).toEqual({
      error: `${method} is not allowed on ${path}; it allows ${allow}`,
    })
    await t.cleanup()
  })

  it('answers an unexpected failure with a bare JSON 500 and logs the details', async () => {
    const t = await testApp()
    t.app.get('/boom', () => {
      throw new Error('secret internals')
    })
    const response = await t.app.request('/boom')
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ error: 'internal error' })
    expect(t.logs.some((line) => line.includes('secret internals'))).toBe(true)
    await t.cleanup()
  })

  it('writes one line per request: time, request id, method, path, status, ms', async () => {
    const t = await testApp()
    const response = await t.app.request('/healthz', { headers: { 'x-request-id': 'abc-123' } })
    expect(response.headers.get('x-request-id')).toBe('abc-123')
    expect(t.logs).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z abc-123 GET \/healthz 200 \d+\.\d\dms\n$/),
    ])
    await t.cleanup()
  })

  it('makes a request id when the caller sends none or a malformed one', async () => {
    const t = await testApp()
    const response = await t.app.request('/healthz', { headers: { 'x-request-id': 'a b;c' } })
    const id = response.headers.get('x-request-id')
    expect(id).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/)
    expect(t.logs[0]?.split(' ')[1]).toBe(id)
    await t.cleanup()
  })
})

describe('CORS', () => {
  const preflight = (app: Awaited<ReturnType<typeof testApp>>['app'], origin: string) =>
    app.request('/sendmail', {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-apikey',
      },
    })

  it('answers a preflight from a page that sends the key, on any origin: sends take one', async () => {
    const t = await testApp({ corsOrigins: ['http://localhost:4000'] })
    for (const origin of ['http://localhost:4000', 'https://other.example']) {
      const response = await preflight(t.app, origin)
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-allow-methods')).toContain('POST')
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'content-type, idempotency-key, if-match, if-none-match, last-event-id, x-apikey, x-request-id',
      )
      expect(response.headers.get('access-control-max-age')).toBe('600')
    }
    await t.cleanup()
  })

  it('wants the key from every page, a listed origin included', async () => {
    const t = await testApp({ corsOrigins: ['http://localhost:4000'] })
    for (const origin of ['http://localhost:4000', 'https://evil.example']) {
      const sent = await sendMail(
        t.app,
        { email: 'ada@example.com', name: 'Ada' },
        { origin, 'x-apikey': '' },
      )
      expect(sent.status).toBe(401)
      expect(sent.headers.get('access-control-allow-origin')).toBe('*')
    }
    await t.cleanup()
  })

  it('allows any origin with *, on successes and errors alike', async () => {
    const t = await testApp({ corsOrigins: ['*'] })
    const origin = { origin: 'https://app.example' }
    const sent = await sendMail(t.app, { email: 'ada@example.com', name: 'Ada' }, origin)
    const refused = await sendMail(t.app, {}, { ...origin, 'x-apikey': 'wrong' })
    const missing = await t.app.request('/nowhere', { headers: origin })
    for (const response of [sent, refused, missing]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-expose-headers')).toBe(
        'etag, idempotent-replayed, link, location, mail-events, retry-after, x-request-id',
      )
    }
    expect([sent.status, refused.status, missing.status]).toEqual([201, 401, 404])
    await t.cleanup()
  })

  it('does not let a preflight through to the routes: no key needed for it', async () => {
    const t = await testApp()
    const response = await preflight(t.app, 'https://app.example')
    expect(response.status).toBe(204)
    expect(t.logs).toEqual([expect.stringMatching(/ OPTIONS \/sendmail 204 /)])
    await t.cleanup()
  })
})

describe('API keys', () => {
  it('accepts any key of the list', async () => {
    const t = await testApp({ apiKeys: [apiKey, 'second-mail-api-key'] })
    for (const key of [apiKey, 'second-mail-api-key']) {
      const response = await sendMail(
        t.app,
        { email: 'a@example.com', name: 'A' },
        { 'x-apikey': key },
      )
      expect(response.status).toBe(201)
    }
    await t.cleanup()
  })

  it('is never built without a key: with none, the guard would let every call through', async () => {
    await expect(testApp({ apiKeys: [] })).rejects.toThrow(
      'mail-service needs at least one API key (API_KEYS)',
    )
  })
})

describe('a body that does not arrive', () => {
  it('is answered 408 after BODY_TIMEOUT_MS, and nothing is sent', async () => {
    const t = await testApp({ bodyTimeoutMs: 200 })
    try {
      const trickle = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"email":'))
        },
      })
      const started = performance.now()
      const response = await t.app.request('/sendmail', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
        body: trickle,
        duplex: 'half',
      } as RequestInit)
      expect(response.status).toBe(408)
      expect(await response.json()).toEqual({
        error: 'the request body did not arrive within 0.2 s',
      })
      expect(response.headers.get('connection')).toBe('close')
      expect(performance.now() - started).toBeLessThan(2_000)
      expect(await t.outbox?.list({ limit: 10 })).toEqual([])
    } finally {
      await t.cleanup()
    }
  })
})
