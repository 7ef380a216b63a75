import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { ApiApp } from './api-app.js'
import { apiRoute } from './api-route.js'

const thing = z.object({ name: z.string().check(z.minLength(1)) })

const putThingRoute = apiRoute({
  method: 'put',
  path: '/things/{id}',
  operationId: 'putThing',
  request: {
    params: z.object({ id: z.string().check(z.regex(/^\d+$/, 'must be digits')) }),
    query: z.object({ tag: z.optional(z.union([z.string(), z.array(z.string())])) }),
    body: { content: { 'application/json': { schema: thing } } },
  },
  responses: { 200: { description: 'What the checks let through' } },
})

function thingsApp(seen: string[] = []) {
  return new ApiApp().openapi(
    {
      ...putThingRoute,
      middleware: [
        async (_c, next) => {
          seen.push('middleware')
          await next()
        },
      ],
    },
    (c) => {
      seen.push('handler')
      const { id } = c.req.valid('param')
      const { tag } = c.req.valid('query')
      const { name } = c.req.valid('json')
      return c.json({ id, tag, name })
    },
  )
}

const put = (app: ApiApp, path: string, body: string) =>
  app.request(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body })

describe('ApiApp', () => {
  it("hands the handler what the route's checks let through", async () => {
    const answer = await put(thingsApp(), '/things/42?tag=a&tag=b', '{"name":"Ada","extra":1}')
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ id: '42', tag: ['a', 'b'], name: 'Ada' })
    const once = await put(thingsApp(), '/things/42?tag=a', '{"name":"Ada"}')
    expect(await once.json()).toEqual({ id: '42', tag: 'a', name: 'Ada' })
  })

  it('answers 400 naming the part and its issues, before the handler runs', async () => {
    const seen: string[] = []
    const badId = await put(thingsApp(seen), '/things/x', '{"name":"Ada"}')
    expect(badId.status).toBe(400)
    expect(await badId.json()).toEqual({
      error: 'invalid path parameter',
      issues: [{ path: 'id', message: 'must be digits' }],
    })
    const badBody = await put(thingsApp(seen), '/things/1', '{"name":""}')
    expect(await badBody.json()).toEqual({
      error: 'invalid request body',
      issues: [{ path: 'name', message: 'Too small: expected string to have >=1 characters' }],
    })
    const notJson = await put(thingsApp(seen), '/things/1', '{"name":')
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toEqual({ error: 'request body is not valid JSON' })
    expect(seen).toEqual(['middleware', 'middleware', 'middleware'])
  })

  it('runs the route’s middleware before its checks', async () => {
    const seen: string[] = []
    await put(thingsApp(seen), '/things/7', '{"name":"Ada"}')
    expect(seen).toEqual(['middleware', 'handler'])
  })

  it('keeps the routes of the apps it includes, and serves them', async () => {
    const app = new ApiApp().include(thingsApp())
    expect(app.apiRoutes.map((route) => route.operationId)).toEqual(['putThing'])
    expect((await put(app, '/things/7', '{"name":"Ada"}')).status).toBe(200)
  })
})
