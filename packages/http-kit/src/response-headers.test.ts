import type { Context, Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { apiRoute } from './api-route.js'
import { createPlainServiceApp } from './plain-service-app.js'
import { responseWithHeaders } from './response-headers.js'
import { createServiceApp } from './service-app.js'

const options = { log: () => {}, corsOrigins: [], apiKeys: [] }
const answers: Record<string, (c: Context) => Response> = {
  '/made-whole': (c) =>
    responseWithHeaders(c, '[]', 200, { 'content-type': 'application/json', etag: '"a"' }),
  '/refused': (c) => c.json({ error: 'no' }, 404, { 'access-control-allow-origin': 'x' }),
  '/redirect': () => Response.redirect('http://127.0.0.1/elsewhere', 302),
  '/thrown': () => {
    throw new Error('boom')
  },
}

/** Both apps of the kit with the same four answers, as routes of each. */
const apps: [string, () => Pick<Hono, 'request'>][] = [
  [
    'the service app',
    () => {
      const app = createServiceApp(options)
      for (const [path, answer] of Object.entries(answers)) {
        const route = apiRoute({ method: 'get', path, operationId: path, responses: {} })
        app.openapi(route, answer)
      }
      return app
    },
  ],
  [
    'the plain service app',
    () => {
      const app = createPlainServiceApp(options)
      for (const [path, answer] of Object.entries(answers)) app.get(path, answer)
      return app
    },
  ],
]

const headersOf = (answer: Response) => Object.fromEntries(answer.headers)

describe.each(apps)("an answer's headers on %s", (_, appOf) => {
  const app = appOf()

  it("are all in one made whole, its own with the request's", async () => {
    const answer = await app.request('/made-whole', { headers: { 'x-request-id': 'r-1' } })
    expect(headersOf(answer)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-expose-headers':
        'etag, idempotent-replayed, link, location, mail-events, retry-after, x-request-id',
      'content-type': 'application/json',
      etag: '"a"',
      'x-content-type-options': 'nosniff',
      'x-request-id': 'r-1',
    })
    expect(await answer.text()).toBe('[]')
  })

  it('are added to an answer made without them, which keeps its own where it names one', async () => {
    const answer = await app.request('/refused', { headers: { 'x-request-id': 'r-1' } })
    expect(answer.status).toBe(404)
    expect(answer.headers.get('x-request-id')).toBe('r-1')
    expect(answer.headers.get('access-control-allow-origin')).toBe('x')
  })

  it('are added to an answer whose headers cannot change, on a copy', async () => {
    const answer = await app.request('/redirect', { headers: { 'x-request-id': 'r-1' } })
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe('http://127.0.0.1/elsewhere')
    expect(answer.headers.get('x-request-id')).toBe('r-1')
  })

  it("are on the error handler's answer too", async () => {
    const answer = await app.request('/thrown', { headers: { 'x-request-id': 'r-1' } })
    expect(answer.status).toBe(500)
    expect(await answer.json()).toEqual({ error: 'internal error' })
    expect(answer.headers.get('x-request-id')).toBe('r-1')
  })
})
