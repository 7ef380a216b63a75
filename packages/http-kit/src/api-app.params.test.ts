import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { ApiApp } from './api-app.js'
import { apiRoute } from './api-route.js'

// A route with one path parameter keeps the values that passed its check: these tests hold it to
// answering exactly as a route that checks every request would, past the number it keeps.

const getThingRoute = apiRoute({
  method: 'get',
  path: '/things/{id}',
  operationId: 'getThing',
  request: {
    params: z.object({
      id: z.pipe(
        z.string().check(z.regex(/^\d+$/, 'must be digits')),
        z.transform((id) => `#${id}`),
      ),
    }),
  },
  responses: { 200: { description: 'The id as checked' } },
})

function thingsApp() {
  let handled = 0
  const app = new ApiApp().openapi(getThingRoute, (c) => {
    handled += 1
    const param = c.req.valid('param')
    return c.json({ id: param.id, frozen: Object.isFrozen(param) })
  })
  return { app, handled: () => handled }
}

describe('a route with one path parameter', () => {
  it('answers a value that passed with what its check made of it, every time', async () => {
    const { app } = thingsApp()
    for (let i = 0; i < 3; i++) {
      const answer = await app.request('/things/42')
      expect(answer.status).toBe(200)
      expect(await answer.json()).toEqual({ id: '#42', frozen: true })
    }
  })

  it('refuses a value that failed, every time, and never runs the handler for it', async () => {
    const { app, handled } = thingsApp()
    for (let i = 0; i < 3; i++) {
      const answer = await app.request('/things/4x')
      expect(answer.status).toBe(400)
      expect(await answer.json()).toEqual({
        error: 'invalid path parameter',
        issues: [{ path: 'id', message: 'must be digits' }],
      })
    }
    expect(handled()).toBe(0)
  })

  it('checks values as before once more have passed than it keeps', async () => {
    const { app } = thingsApp()
    for (let i = 0; i < 2500; i++) {
      const answer = await app.request(`/things/${i}`)
      expect(answer.status).toBe(200)
      expect(await answer.json()).toEqual({ id: `#${i}`, frozen: true })
    }
    expect((await app.request('/things/1.5')).status).toBe(400)
    expect(await (await app.request('/things/7')).json()).toEqual({ id: '#7', frozen: true })
  })

  it('decodes the value before it checks and keeps it: one item, however it is encoded', async () => {
    const { app } = thingsApp()
    expect(await (await app.request('/things/%34%32')).json()).toEqual({ id: '#42', frozen: true })
    expect(await (await app.request('/things/42')).json()).toEqual({ id: '#42', frozen: true })
    expect((await app.request('/things/%34x')).status).toBe(400)
  })
})
