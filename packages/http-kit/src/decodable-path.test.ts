import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { ApiApp } from './api-app.js'
import { apiRoute } from './api-route.js'

const itemRoute = apiRoute({
  method: 'get',
  path: '/items/{id}',
  operationId: 'getItem',
  request: { params: z.object({ id: z.string() }) },
  responses: { 200: { description: 'The id as the route got it' } },
})
const app = new ApiApp().openapi(itemRoute, (c) => c.json({ id: c.req.valid('param').id }))

describe('a route with path parameters', () => {
  it('lets a path through whose escapes are UTF-8', async () => {
    const response = await app.request('/items/Am%C3%A9lie%20%25ED?x=%FF')
    expect(await response.json()).toEqual({ id: 'Amélie %ED' })
  })

  it.each(['/items/%ED%A0%80', '/items/%FF', '/items/%E0%A4%A'])(
    'refuses %s with 400 naming the parameter',
    async (path) => {
      const response = await app.request(path)
      expect([response.status, await response.json()]).toEqual([
        400,
        {
          error: 'invalid path parameter',
          issues: [{ path: 'id', message: 'is not percent-encoded UTF-8' }],
        },
      ])
    },
  )
})
