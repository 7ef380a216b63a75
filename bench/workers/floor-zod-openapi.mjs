// A start's floor: Hono with @hono/zod-openapi, as items-service's routes are written: one route
// and its schema (bench/start-floor.mjs).
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'

const Item = z.object({ id: z.string(), name: z.string(), genre: z.string() }).openapi('Item')
const listRoute = createRoute({
  method: 'get',
  path: '/items',
  responses: {
    200: { description: 'the list', content: { 'application/json': { schema: z.array(Item) } } },
  },
})

export default new OpenAPIHono().openapi(listRoute, (c) =>
  c.json([{ id: 'tt1', name: 'Alien', genre: 'SF' }], 200),
)
