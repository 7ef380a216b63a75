import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../test/support/test-app.js'

const line = /^(\S+) (\S+) (\S+) (\S+) (\d{3}) (\d+(?:\.\d+)?)ms\n$/

describe('the request log', () => {
  const api = useTestApp({ apiKey: 'never-log-me-api-key' })

  it('writes one line per request: time, request id, method, path, status and ms', async () => {
    const response = await api().request('/items/tt0111161')
    expect(api().lines).toHaveLength(1)
    const [, time, requestId, method, path, status] = api().lines[0]?.match(line) ?? []
    expect(new Date(time as string).getTime()).not.toBeNaN()
    expect(requestId).toBe(response.headers.get('x-request-id'))
    expect([method, path, status]).toEqual(['GET', '/items/tt0111161', '404'])
  })

  it('writes a line for refused requests too', async () => {
    await api().post(movies.shawshank)
    await api().request('/nowhere')
    expect(api().lines.map((entry) => entry.split(' ').slice(2, 5).join(' '))).toEqual([
      'POST /items 401',
      'GET /nowhere 404',
    ])
  })

  it('gives each request its own id', async () => {
    const first = await api().request('/items')
    const second = await api().request('/items')
    expect(first.headers.get('x-request-id')).toBeTruthy()
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'))
  })

  it('keeps a sane x-request-id from the caller and replaces one that is not', async () => {
    const kept = await api().request('/items', { headers: { 'x-request-id': 'abc-123_x=y' } })
    expect(kept.headers.get('x-request-id')).toBe('abc-123_x=y')
    const replaced = await api().request('/items', { headers: { 'x-request-id': 'a b\tfake 200' } })
    expect(replaced.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/)
    expect(api().lines.join('')).not.toContain('fake')
  })

  it('never writes the API key', async () => {
    await api().post(movies.shawshank, { 'x-apikey': 'never-log-me-api-key' })
    await api().post(movies.godfather, { 'x-apikey': 'never-log-me-wrong' })
    expect(api().lines.join('')).not.toContain('never-log-me-api-key')
  })
})
