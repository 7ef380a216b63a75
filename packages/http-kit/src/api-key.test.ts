import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { ApiApp } from './api-app.js'
import { guarded } from './api-key.js'
import { apiRoute } from './api-route.js'
import { openApiDocument } from './openapi-document.js'
import { createServiceApp } from './service-app.js'

const secretRoute = apiRoute(
  guarded({
    method: 'post',
    path: '/secret',
    operationId: 'postSecret',
    responses: {
      200: { description: 'ok', content: { 'application/json': { schema: z.object({}) } } },
    },
  }),
)

/** The route on the service app with `keys`; without keys given, on a bare `ApiApp`. */
function guardedApp(keys?: readonly string[], writeOrigins: readonly string[] = []) {
  const app = keys
    ? createServiceApp({ log: () => {}, apiKeys: keys, corsOrigins: writeOrigins })
    : new ApiApp()
  app.openapi(secretRoute, (c) => c.json({}, 200))
  return app
}

const post = (app: Pick<ApiApp, 'request'>, headers: Record<string, string> = {}) =>
  app.request('/secret', { method: 'POST', headers })

describe('the API-key guard', () => {
  it('admits any of the configured keys and nothing else', async () => {
    const app = guardedApp(['first-api-key-of-test', 'second-api-key-of-test'])
    expect((await post(app, { 'x-apikey': 'first-api-key-of-test' })).status).toBe(200)
    expect((await post(app, { 'x-apikey': 'second-api-key-of-test' })).status).toBe(200)
    for (const wrong of ['', 'first', 'first-key2', 'FIRST-KEY', 'first-key,second-key']) {
      const refused = await post(app, { 'x-apikey': wrong })
      expect(refused.status).toBe(401)
      expect(await refused.json()).toEqual({ error: 'Unauthorized' })
    }
    expect((await post(app)).status).toBe(401)
  })

  it('lets every request through when no key is configured (the rule in DESIGN.md)', async () => {
    expect((await post(guardedApp([]))).status).toBe(200)
  })

  it('refuses, where no key is configured, a write from a page on an origin not listed', async () => {
    const app = guardedApp([], ['https://app.example'])
    const page = (headers: Record<string, string>) =>
      app.request('http://items.example/secret', { method: 'POST', headers })
    // Pages of the service's own origin, of a listed one, and clients that are no browser.
    expect((await page({ origin: 'http://items.example' })).status).toBe(200)
    expect((await page({ origin: 'https://app.example' })).status).toBe(200)
    expect((await page({})).status).toBe(200)
    expect((await page({ 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'http://items.example:8080' },
      { origin: 'https://app.example.evil' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]
    for (const headers of foreign) {
      const refused = await page(headers)
      expect(refused.status, JSON.stringify(headers)).toBe(403)
      expect(await refused.json()).toEqual({
        error: expect.stringMatching(/^a write from .* needs that origin in CORS_ORIGINS$/),
      })
    }
    expect((await post(guardedApp([], ['*']), { origin: 'https://any.example' })).status).toBe(200)
  })

  it('takes the key from a page on any origin, and wants it from a listed one too', async () => {
    const app = guardedApp(['k'], ['https://app.example'])
    const from = (origin: string, key?: string) =>
      post(app, { origin, ...(key && { 'x-apikey': key }) })
    expect((await from('https://evil.example', 'k')).status).toBe(200)
    expect((await from('https://evil.example')).status).toBe(401)
    expect((await from('https://app.example')).status).toBe(401)
  })

  it('refuses everything on an app that is not the service app (no rule for keys)', async () => {
    expect((await post(guardedApp(), { 'x-apikey': 'anything' })).status).toBe(401)
  })

  it('closes the connection when it refuses a request with a body on its way', async () => {
    const refused = await guardedApp(['k']).request('/secret', {
      method: 'POST',
      headers: { 'content-length': '5' },
      body: 'hello',
    })
    expect(refused.headers.get('connection')).toBe('close')
  })

  it('declares the scheme in the route, so the document and the guard agree', () => {
    const app = guardedApp(['k'])
    const document = openApiDocument(app.apiRoutes, { info: { title: 't', version: '1' } })
    expect(document.paths['/secret']?.post).toMatchObject({ security: [{ ApiKey: [] }] })
  })
})
