import { describe, expect, it } from 'vitest'
import { apiRoute } from './api-route.js'
import { createServiceApp } from './service-app.js'

const itemsRoute = apiRoute({
  method: 'get',
  path: '/items',
  operationId: 'listItems',
  responses: { 200: { description: 'The items' } },
})

/** The service app with one read, the key configured when `keyedWrites`. */
function corsApp({ writeOrigins, keyedWrites }: { writeOrigins: string[]; keyedWrites: boolean }) {
  const apiKeys = keyedWrites ? ['cors-test-key-1234'] : []
  return createServiceApp({ log: () => {}, corsOrigins: writeOrigins, apiKeys }).openapi(
    itemsRoute,
    (c) => c.json([]),
  )
}

const preflight = (origin: string, headers = 'content-type') => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': 'PUT',
    'access-control-request-headers': headers,
  },
})
const methodsOf = (response: Response) => response.headers.get('access-control-allow-methods')
const reads = 'GET, HEAD, OPTIONS'
const all = 'GET, HEAD, POST, PUT, DELETE, OPTIONS'

describe('CORS on the service app', () => {
  it('lets every origin read answers, and exposes the headers apps need', async () => {
    const app = corsApp({ writeOrigins: ['https://app.example'], keyedWrites: false })
    for (const origin of ['https://app.example', 'https://other.example', 'null']) {
      const response = await app.request('/items', { headers: { origin } })
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-expose-headers')).toBe(
        'etag, idempotent-replayed, link, location, mail-events, retry-after, x-request-id',
      )
      expect(response.headers.get('vary')).toBeNull()
    }
  })

  it('allows writes in a preflight only from a listed origin, where writes take no key', async () => {
    const app = corsApp({ writeOrigins: ['https://app.example'], keyedWrites: false })
    const listed = await app.request('/items', preflight('https://app.example'))
    expect([listed.status, methodsOf(listed)]).toEqual([204, all])
    expect(listed.headers.get('access-control-allow-headers')).toBe(
      'content-type, idempotency-key, if-match, if-none-match, last-event-id, x-apikey, x-request-id',
    )
    expect(listed.headers.get('vary')).toBe('Origin, Access-Control-Request-Headers')
    for (const headers of ['content-type', 'content-type, x-apikey']) {
      const other = await app.request('/items', preflight('https://evil.example', headers))
      expect([other.status, methodsOf(other)]).toEqual([204, reads])
      expect(other.headers.get('access-control-allow-origin')).toBe('*')
    }
  })

  it('allows writes in a preflight from any origin with `*`', async () => {
    const app = corsApp({ writeOrigins: ['*'], keyedWrites: false })
    expect(methodsOf(await app.request('/items', preflight('https://a.example')))).toBe(all)
  })

  it('allows writes to a page that will send the key, where writes take one', async () => {
    const app = corsApp({ writeOrigins: [], keyedWrites: true })
    const keyed = await app.request(
      '/items',
      preflight('https://a.example', 'Content-Type,X-ApiKey'),
    )
    expect(methodsOf(keyed)).toBe(all)
    const keyless = await app.request('/items', preflight('https://a.example', 'content-type'))
    expect(methodsOf(keyless)).toBe(reads)
    const lookalike = await app.request('/items', preflight('https://a.example', 'x-apikeys'))
    expect(methodsOf(lookalike)).toBe(reads)
  })
})

describe('CORS on every answer', () => {
  it('is on refusals, a path no route has, and preflights of any path', async () => {
    const app = corsApp({ writeOrigins: [], keyedWrites: false })
    for (const [path, init, status] of [
      ['/nowhere', {}, 404],
      ['/items', { method: 'DELETE' }, 405],
      ['/nowhere', preflight('https://a.example'), 204],
    ] as const) {
      const response = await app.request(path, init)
      expect(response.status).toBe(status)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/)
    }
  })
})
