import { Hono } from 'hono'
import { PatternRouter } from 'hono/router/pattern-router'
import { describe, expect, it } from 'vitest'
import { isoStamp, type RequestRecord, requestLine, requestLog } from './request-log.js'

function loggedApp() {
  const lines: string[] = []
  const app = new Hono()
  app.use(...requestLog({ write: (line) => lines.push(line) }))
  app.get('/*', (c) => c.json({ path: c.req.path }))
  return { app, lines }
}

const line = /^(\S+) (\S+) (\S+) (\S+) (\d{3}) (\d+\.\d{2})ms\n$/

describe('requestLog', () => {
  it('writes one line per request: time, request id, method, path, status and ms', async () => {
    const { app, lines } = loggedApp()
    const response = await app.request('/items/tt1')
    const [, time, id, method, path, status] = lines[0]?.match(line) ?? []
    expect(lines).toHaveLength(1)
    expect(new Date(time as string).toISOString()).toBe(time)
    expect(id).toBe(response.headers.get('x-request-id'))
    expect([method, path, status]).toEqual(['GET', '/items/tt1', '200'])
  })

  it.each([
    ['an encoded newline', '/x%0A2026-01-01T00:00:00.000Z forged GET /admin 200 1.00ms', '%0A'],
    ['an encoded carriage return', '/x%0Dforged', '%0D'],
    ['an encoded tab and spaces', '/x%09y%20z', '%09'],
    ['a decoded control character', '/x%1By', '%1B'],
  ])('escapes %s in the path, so that no request forges a line', async (_, path, shown) => {
    const { app, lines } = loggedApp()
    await app.request(path)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(line)
    expect(lines[0]).toContain(shown)
  })

  it('keeps a sane x-request-id (hono requestId rule) and replaces one that could break the line', async () => {
    const { app, lines } = loggedApp()
    const kept = await app.request('/', { headers: { 'x-request-id': 'abc-123_x=y' } })
    expect(kept.headers.get('x-request-id')).toBe('abc-123_x=y')
    expect(lines.join('')).toContain(' abc-123_x=y GET / ')
    const dotted = await app.request('/', { headers: { 'x-request-id': 'abc.123' } })
    expect(dotted.headers.get('x-request-id')).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/)
    const replaced = await app.request('/', { headers: { 'x-request-id': 'a b\tforged 200' } })
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/)
    expect(lines.join('')).not.toContain('forged')
  })

  it('gives requests without an id distinct ids', async () => {
    const { app } = loggedApp()
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await app.request('/')).headers.get('x-request-id')),
    )
    expect(new Set(ids).size).toBe(3)
  })

  it('marks every answer nosniff, refusals and errors included', async () => {
    const app = new Hono()
    app.use(...requestLog({ write: () => {} }))
    app.get('/fail', () => {
      throw new Error('boom')
    })
    app.onError((_, c) => c.json({ error: 'internal error' }, 500))
    for (const path of ['/fail', '/nowhere']) {
      const response = await app.request(path)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe('requestLog onResponse', () => {
  function observedApp() {
    const records: RequestRecord[] = []
    const app = new Hono({ router: new PatternRouter() })
    app.use(...requestLog({ write: null, onResponse: (record) => records.push(record) }))
    app.use(async (_, next) => {
      await next()
    })
    const items = new Hono()
    items.get('/items/:id', (c) => c.json({ id: c.req.param('id') }))
    items.post('/items', (c) => c.json({ error: 'Unauthorized' }, 401))
    app.route('/', items)
    return { app, records }
  }

  it("gives each finished request's record with the route's template, never the path", async () => {
    const { app, records } = observedApp()
    const response = await app.request('/items/tt0111161')
    await app.request('/items', { method: 'POST' })
    expect(records).toEqual([
      {
        requestId: response.headers.get('x-request-id'),
        method: 'GET',
        path: '/items/tt0111161',
        route: '/items/:id',
        status: 200,
        durationMs: expect.any(Number),
        user: undefined,
        keyDigest: undefined,
      },
      expect.objectContaining({ method: 'POST', route: '/items', status: 401 }),
    ])
  })

  it('gives no route to a request no route of its method matched', async () => {
    const { app, records } = observedApp()
    await app.request('/nowhere/tt1')
    await app.request('/items/tt1', { method: 'DELETE' })
    expect(records.map(({ route, status }) => [route, status])).toEqual([
      [undefined, 404],
      [undefined, 404],
    ])
  })

  it('writes no text line when its write is null', async () => {
    const { app, records } = observedApp()
    await app.request('/items/tt1')
    expect(records).toHaveLength(1)
  })
})

describe('requestLine', () => {
  it('leaves a plain path as it is', () => {
    expect(requestLine('id-1', 'GET', '/items/tt0111161', 200, performance.now())).toMatch(
      / id-1 GET \/items\/tt0111161 200 \d+\.\d{2}ms\n$/,
    )
  })
  it('stamps each line with the time as toISOString writes it, to the millisecond', () => {
    const second = Date.UTC(2026, 10, 27, 23, 59, 59)
    // Within one second (the part up to it is kept), across a second, a day and a year.
    const times = [0, 5, 99, 100, 999, 1000, 1007, 1010, 86_399_999]
      .map((ms) => second + ms)
      .concat([Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), 0, 1_700_000_000_001])
    for (const now of times) expect(isoStamp(now)).toBe(new Date(now).toISOString())
  })
})
