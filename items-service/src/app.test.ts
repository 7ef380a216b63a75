import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import { describe, expect, it } from 'vitest'
import { failingStore } from '../test/support/failing-store.js'
import { movies, useTestApp } from '../test/support/test-app.js'
import { createApp } from './app.js'
import type { ItemStore } from './store/item-store.js'

function appOver(store: ItemStore) {
  const lines: string[] = []
  const app = createApp({ store, log: (line) => lines.push(line) })
  return { lines, request: (path: string, init?: RequestInit) => app.request(path, init) }
}

const json = { 'content-type': 'application/json' }
const everyRoute: [string, string, string?][] = [
  ['GET', '/items'],
  ['GET', '/items/tt0111161'],
  ['POST', '/items', JSON.stringify(movies.shawshank)],
  ['PUT', '/items/tt0111161', '{"genre":"X"}'],
  ['DELETE', '/items/tt0111161'],
]

describe('when the database does not answer', () => {
  const { request, lines } = appOver(
    failingStore(
      () =>
        new StoreUnavailableError('database unavailable', {
          cause: new Error('connect ECONNREFUSED 10.0.0.7'),
        }),
    ),
  )

  it.each(everyRoute)('%s %s answers 503 with no internals', async (method, path, body) => {
    const response = await request(path, { method, headers: json, body })
    expect(response.status).toBe(503)
    expect(await response.text()).toBe('{"error":"database unavailable"}')
  })

  it('GET /healthz answers 503', async () => {
    const response = await request('/healthz')
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: 'database unavailable' })
    expect(lines.join('')).not.toContain('ECONNREFUSED')
  })
})

describe('when the store fails in an unexpected way', () => {
  const { request, lines } = appOver(
    failingStore(() => new Error('EACCES: /secret/path/movies.db')),
  )

  it('answers 500 without internals and writes the error to the log', async () => {
    const response = await request('/items')
    expect(response.status).toBe(500)
    expect(await response.text()).toBe('{"error":"internal error"}')
    expect(lines.join('')).toContain('EACCES: /secret/path/movies.db')
  })
})

describe('GET /healthz', () => {
  const api = useTestApp()

  it('answers 200 while the store answers', async () => {
    const response = await api().request('/healthz')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
  })
})

describe('unknown routes', () => {
  const api = useTestApp()

  it.each([
    ['GET', '/item'],
    ['GET', '/items/a/b'],
    ['POST', '/items/a/b'],
  ])('%s %s answers 404 JSON and changes nothing', async (method, path) => {
    await api().seed(movies.shawshank)
    await api().expectRefused(
      () => api().request(path, { method, headers: json, body: method === 'GET' ? null : '{}' }),
      404,
    )
  })
})

describe('a method the path does not have', () => {
  const api = useTestApp()

  it.each([
    ['PATCH', '/items/tt0111161', 'GET, HEAD, PUT, DELETE, OPTIONS'],
    ['POST', '/items/tt0111161', 'GET, HEAD, PUT, DELETE, OPTIONS'],
    ['DELETE', '/items', 'GET, HEAD, POST, OPTIONS'],
    ['POST', '/healthz', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/openapi.json', 'GET, HEAD, OPTIONS'],
  ])('%s %s answers 405 with Allow: %s, and changes nothing', async (method, path, allow) => {
    await api().seed(movies.shawshank)
    let allowed: string | null = null
    const body = await api().expectRefused(async () => {
      const response = await api().request(path, { method, headers: json, body: '{"name":"x"}' })
      allowed = response.headers.get('allow')
      return response
    }, 405)
    expect(allowed).toBe(allow)
    expect(body.error).toBe(`${method} is not allowed on ${path}; it allows ${allow}`)
  })

  it('answers a plain OPTIONS with 204 and Allow; a CORS preflight as before', async () => {
    const plain = await api().request('/items', { method: 'OPTIONS' })
    expect([plain.status, plain.headers.get('allow')]).toEqual([204, 'GET, HEAD, POST, OPTIONS'])
    const preflight = await api().request('/items', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT' },
    })
    expect(preflight.status).toBe(204)
    // An origin not in CORS_ORIGINS, and no key to send: reads only.
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS')
  })
})
