import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../test/support/test-app.js'

const preflight = (origin: string, method = 'POST', headers = 'content-type') => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': headers,
  },
})
const item = JSON.stringify(movies.shawshank)
const json = { 'content-type': 'application/json' }
/** A write as a browser sends it for a page of `origin`, to the service at localhost. */
const fromPage = (origin: string, method = 'POST', extra: Record<string, string> = {}) => ({
  method,
  headers: { ...json, origin, ...extra },
  body: method === 'DELETE' ? null : item,
})

describe('CORS by default (no CORS_ORIGINS, no ITEMS_APIKEY)', () => {
  const api = useTestApp()

  it('lets any origin read answers, Location, Link, ETag and x-request-id included', async () => {
    const response = await api().request('/items', { headers: { origin: 'https://any.example' } })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = response.headers.get('access-control-expose-headers')?.split(', ')
    expect(exposed).toEqual(expect.arrayContaining(['location', 'link', 'etag', 'x-request-id']))
  })

  it('allows another origin only reads in a preflight, the headers of reads included', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await api().request(
        '/items/tt0111161',
        preflight('https://any.example', method, 'content-type, x-apikey'),
      )
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS')
      // A follower of /items/events on another origin resumes with it.
      expect(response.headers.get('access-control-allow-headers')).toContain('last-event-id')
    }
  })

  it('refuses a write from a page on another origin with 403, and changes nothing', async () => {
    await api().seed(movies.godfather)
    const before = await (await api().request('/items')).text()
    for (const [method, path] of [
      ['POST', '/items'],
      ['PUT', '/items/tt0068646'],
      ['DELETE', '/items/tt0068646'],
    ] as const) {
      const answer = await api().expectRefused(
        () => api().request(path, fromPage('https://evil.example', method)),
        403,
      )
      expect(answer).toEqual({
        error: 'a write from https://evil.example needs that origin in CORS_ORIGINS',
      })
    }
    expect(await (await api().request('/items')).text()).toBe(before)
  })

  it("takes writes from the service's own page, and from clients that are no browser", async () => {
    // The test app is asked at http://localhost: its own page's origin.
    const own = await api().request('/items', fromPage('http://localhost'))
    expect(own.status).toBe(201)
    expect((await api().post(movies.godfather)).status).toBe(201)
  })
})

describe('CORS for origins that may write (CORS_ORIGINS)', () => {
  const api = useTestApp({ corsOrigins: ['https://app.example', 'http://localhost:5173'] })

  it('allows a listed origin to write, in the preflight and on the server', async () => {
    const response = await api().request('/items', preflight('http://localhost:5173'))
    expect(response.headers.get('access-control-allow-methods')).toBe(
      'GET, HEAD, POST, PUT, DELETE, OPTIONS',
    )
    expect((await api().request('/items', fromPage('http://localhost:5173'))).status).toBe(201)
  })

  it('refuses an origin that only looks like a listed one', async () => {
    for (const origin of ['https://app.example.evil', 'http://app.example', 'null']) {
      const preflighted = await api().request('/items', preflight(origin))
      expect(preflighted.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS')
      expect((await api().request('/items', fromPage(origin))).status, origin).toBe(403)
    }
  })
})

describe('CORS where writes need ITEMS_APIKEY', () => {
  const api = useTestApp({ corsOrigins: ['https://app.example'], apiKey: 'cors-test-api-key' })

  it('lets a page on any origin write with the key, and asks a listed one for it too', async () => {
    const keyed = await api().request(
      '/items',
      preflight('https://other.example', 'POST', 'content-type, x-apikey'),
    )
    expect(keyed.headers.get('access-control-allow-methods')).toContain('POST')
    const withKey = fromPage('https://other.example', 'POST', { 'x-apikey': 'cors-test-api-key' })
    expect((await api().request('/items', withKey)).status).toBe(201)
    expect((await api().request('/items', fromPage('https://app.example'))).status).toBe(401)
  })

  it('lets a page read error answers too', async () => {
    const notFound = await api().request('/items/nope', {
      headers: { origin: 'https://x.example' },
    })
    expect(notFound.status).toBe(404)
    expect(notFound.headers.get('access-control-allow-origin')).toBe('*')
  })
})
