import type { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { apiRoute } from './api-route.js'
import { createPlainServiceApp } from './plain-service-app.js'
import { isoStamp, type RequestRecord, requestLine } from './request-log.js'
import { createServiceApp } from './service-app.js'

const itemRoute = apiRoute({
  method: 'get',
  path: '/items/{id}',
  operationId: 'getItem',
  request: { params: z.object({ id: z.string() }) },
  responses: { 200: { description: 'The path' } },
})
const failRoute = apiRoute({
  method: 'get',
  path: '/fail',
  operationId: 'fail',
  responses: { 500: { description: 'Always' } },
})

/** Both apps of the kit, each with a read and a route that throws, logging into `lines`. */
const apps: [string, (lines: string[]) => Pick<Hono, 'request'>][] = [
  [
    'the service app',
    (lines) =>
      createServiceApp({ log: (line) => lines.push(line), corsOrigins: [], apiKeys: [] })
        .openapi(itemRoute, (c) => c.json({ path: c.req.path }))
        .openapi(failRoute, () => {
          throw new Error('boom')
        }),
  ],
  [
    'the plain service app',
    (lines) =>
      createPlainServiceApp({ log: (line) => lines.push(line), corsOrigins: [], apiKeys: [] })
        .get('/items/:id', (c) => c.json({ path: c.req.path }))
        .get('/fail', () => {
          throw new Error('boom')
        }),
  ],
]

const line = /^(\S+) (\S+) (\S+) (\S+) (\d{3}) (\d+\.\d{2})ms\n$/

describe.each(apps)('the request log of %s', (_, appOf) => {
  const loggedApp = () => {
    const lines: string[] = []
    return { app: appOf(lines), lines }
  }

  it('writes one line per request: time, request id, method, path, status and ms', async () => {
    const { app, lines } = loggedApp()
    const response = await app.request('/items/tt1')
    const [, time, id, method, path, status] = lines[0]?.match(line) ?? []
    expect(lines).toHaveLength(1)
    expect(new Date(time as string).toISOString()).toBe(time)
    expect(id).toBe(response.headers.get('x-request-id'))
    expect([method, path, status]).toEqual(['GET', '/items/tt1', '200'])
  })

  it('writes one line for a path no route has, and for an answer to a failure', async () => {
    const { app, lines } = loggedApp()
    await app.request('/nowhere')
    await app.request('/fail')
    expect(lines.filter((one) => line.test(one)).map((one) => one.match(line)?.[5])).toEqual([
      '404',
      '500',
    ])
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
    const kept = await app.request('/items/1', { headers: { 'x-request-id': 'abc-123_x=y' } })
    expect(kept.headers.get('x-request-id')).toBe('abc-123_x=y')
    expect(lines.join('')).toContain(' abc-123_x=y GET /items/1 ')
    const dotted = await app.request('/items/1', { headers: { 'x-request-id': 'abc.123' } })
    expect(dotted.headers.get('x-request-id')).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/)
    const replaced = await app.request('/items/1', {
      headers: { 'x-request-id': 'a b\tforged 200' },
    })
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/)
    expect(lines.join('')).not.toContain('forged')
  })

  it('gives requests without an id distinct ids', async () => {
    const { app } = loggedApp()
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await app.request('/items/1')).headers.get('x-request-id')),
    )
    expect(new Set(ids).size).toBe(3)
  })

  it('marks every answer nosniff, refusals and errors included', async () => {
    const { app } = loggedApp()
    for (const path of ['/items/1', '/fail', '/nowhere']) {
      const response = await app.request(path)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe('the record each finished request gives onResponse', () => {
  const observed = () => {
    const records: RequestRecord[] = []
    const options = {
      log: null,
      onResponse: (record: RequestRecord) => records.push(record),
      corsOrigins: [],
      apiKeys: [],
    }
    const app = createServiceApp(options).openapi(itemRoute, (c) => c.json({ path: c.req.path }))
    const plain = createPlainServiceApp(options).get('/items/:id', (c) => c.json({}))
    return { app, plain, records }
  }

  it("names the route's template, never the path, on both apps", async () => {
    const { app, plain, records } = observed()
    const response = await app.request('/items/tt0111161')
    await plain.request('/items/tt0111161')
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
      expect.objectContaining({ path: '/items/tt0111161', route: '/items/:id', status: 200 }),
    ])
  })

  it('gives no route to a request no route of its method matched, and writes no line', async () => {
    const { app, records } = observed()
    await app.request('/nowhere/tt1')
    await app.request('/items/tt1', { method: 'DELETE' })
    expect(records.map(({ route, status }) => [route, status])).toEqual([
      [undefined, 404],
      [undefined, 405],
    ])
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
