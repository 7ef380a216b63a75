import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { cors } from './cors.js'
import { requestLog } from './request-log.js'

function corsApp(origins: readonly string[]) {
  const app = new Hono()
  app.use(requestLog({ write: () => {} }), cors({ origins }))
  app.get('/items', (c) => c.json([]))
  return app
}

const preflight = (origin: string) => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'PUT' },
})

describe('cors', () => {
  it('lets any origin read answers with `*`, and exposes the headers apps need', async () => {
    const response = await corsApp(['*']).request('/items', {
      headers: { origin: 'https://a.example' },
    })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'etag, idempotent-replayed, link, location, retry-after, x-request-id',
    )
    expect(response.headers.get('vary')).toBeNull()
  })

  it('names only a listed origin, and varies on Origin', async () => {
    const app = corsApp(['https://app.example'])
    const listed = await app.request('/items', { headers: { origin: 'https://app.example' } })
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(listed.headers.get('vary')).toBe('Origin')
    const other = await app.request('/items', { headers: { origin: 'https://evil.example' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    expect(other.headers.get('vary')).toBe('Origin')
  })

  it('answers a preflight itself with 204 and what writes need', async () => {
    const response = await corsApp(['*']).request('/anything', preflight('https://a.example'))
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-methods')).toContain('PUT')
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'content-type, idempotency-key, if-match, if-none-match, last-event-id, x-apikey, x-request-id',
    )
    expect(response.headers.get('access-control-max-age')).toBe('600')
  })

  it('allows nothing in a preflight from an origin not listed', async () => {
    const response = await corsApp(['https://app.example']).request(
      '/items',
      preflight('https://evil.example'),
    )
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    expect(response.headers.get('access-control-allow-methods')).toBeNull()
  })
})
