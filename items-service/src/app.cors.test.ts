import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../test/support/test-app.js'

const preflight = (origin: string, method = 'POST') => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'content-type, x-apikey',
  },
})

describe('CORS for any origin (the default)', () => {
  const api = useTestApp()

  it('lets any origin read answers, Location, Link, ETag and x-request-id included', async () => {
    const response = await api().request('/items', { headers: { origin: 'https://any.example' } })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = response.headers.get('access-control-expose-headers')?.split(', ')
    expect(exposed).toEqual(expect.arrayContaining(['location', 'link', 'etag', 'x-request-id']))
  })

  it('answers a preflight with 204, the methods and the headers writes need', async () => {
    const response = await api().request(
      '/items/tt0111161',
      preflight('https://any.example', 'PUT'),
    )
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const methods = response.headers.get('access-control-allow-methods') ?? ''
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) expect(methods).toContain(method)
    const headers = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase()
    expect(headers).toContain('content-type')
    expect(headers).toContain('x-apikey')
    // A follower of /items/events on another origin resumes with it.
    expect(headers).toContain('last-event-id')
  })
})

describe('CORS for an allow-list', () => {
  const api = useTestApp({
    corsOrigins: ['https://app.example', 'http://localhost:5173'],
    apiKey: 'k',
  })

  it('echoes a listed origin and varies on Origin', async () => {
    const response = await api().request('/items', { headers: { origin: 'http://localhost:5173' } })
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(response.headers.get('vary')).toMatch(/origin/i)
  })

  it('gives an origin not on the list no allow header', async () => {
    for (const origin of ['https://evil.example', 'https://app.example.evil', 'null']) {
      const response = await api().request('/items', { headers: { origin } })
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull()
      expect(response.headers.get('vary')).toMatch(/origin/i)
    }
  })

  it('answers a preflight from a listed origin without asking for the API key', async () => {
    const response = await api().request('/items', preflight('https://app.example'))
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(response.headers.get('access-control-allow-headers')).toContain('x-apikey')
  })

  it('allows nothing in a preflight from an origin not on the list', async () => {
    const response = await api().request('/items', preflight('https://evil.example'))
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    expect(response.headers.get('access-control-allow-methods')).toBeNull()
  })

  it('lets a listed origin read error answers too', async () => {
    const origin = { origin: 'https://app.example' }
    expect(
      (await api().post(movies.shawshank, origin)).headers.get('access-control-allow-origin'),
    ).toBe('https://app.example')
    const notFound = await api().request('/items/nope', { headers: origin })
    expect(notFound.status).toBe(404)
    expect(notFound.headers.get('access-control-allow-origin')).toBe('https://app.example')
  })
})
