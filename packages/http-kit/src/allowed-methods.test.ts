import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { allowedMethods, noRouteResponse } from './allowed-methods.js'

function appWithRoutes() {
  const app = new Hono()
  app.use(async (_c, next) => next())
  app.get('/items', (c) => c.json([]))
  app.post('/items', (c) => c.json([], 201))
  app.get('/items/:id', (c) => c.json({}))
  app.put('/items/:id', (c) => c.json([]))
  app.delete('/items/:id', (c) => c.json([]))
  app.post('/sendmail', (c) => c.json({}, 201))
  app.notFound(noRouteResponse(allowedMethods(app.routes)))
  return app
}

describe('a method the path does not have', () => {
  it('answers 405 with Allow listing the methods the path has', async () => {
    const app = appWithRoutes()
    const patch = await app.request('/items/x', { method: 'PATCH' })
    expect(patch.status).toBe(405)
    expect(patch.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE, OPTIONS')
    expect(await patch.json()).toEqual({
      error: 'PATCH is not allowed on /items/x; it allows GET, HEAD, PUT, DELETE, OPTIONS',
    })
    const deleteAll = await app.request('/items', { method: 'DELETE' })
    expect([deleteAll.status, deleteAll.headers.get('allow')]).toEqual([
      405,
      'GET, HEAD, POST, OPTIONS',
    ])
    const get = await app.request('/sendmail')
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST, OPTIONS'])
  })

  it('leaves a body on its way unread: the connection closes after the answer', async () => {
    const response = await appWithRoutes().request('/items/x', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'content-length': '2' },
      body: '{}',
    })
    expect([response.status, response.headers.get('connection')]).toEqual([405, 'close'])
  })

  it('answers a plain OPTIONS with 204 and Allow', async () => {
    const response = await appWithRoutes().request('/sendmail', { method: 'OPTIONS' })
    expect([response.status, response.headers.get('allow')]).toEqual([204, 'POST, OPTIONS'])
  })
})

describe('a path no route has', () => {
  it('answers 404 naming the method and path, whatever the method', async () => {
    const app = appWithRoutes()
    for (const method of ['GET', 'DELETE', 'OPTIONS']) {
      const response = await app.request('/nowhere', { method })
      expect([response.status, await response.json()]).toEqual([
        404,
        { error: `no route for ${method} /nowhere` },
      ])
    }
  })
})
