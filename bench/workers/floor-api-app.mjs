// A start's floor: Hono with http-kit's route table, as both micros' routes are written: one
// route and its schema, checked with `zod/mini` (bench/start-floor.mjs).
import { ApiApp, apiRoute, named } from '@movies-and-mail/http-kit/api-route'
import * as z from 'zod/mini'

const Item = named('Item', z.object({ id: z.string(), name: z.string(), genre: z.string() }))
const listRoute = apiRoute({
  method: 'get',
  path: '/items',
  operationId: 'listItems',
  responses: {
    200: { description: 'the list', content: { 'application/json': { schema: z.array(Item) } } },
  },
})

export default new ApiApp().openapi(listRoute, (c) =>
  c.json([{ id: 'tt1', name: 'Alien', genre: 'SF' }], 200),
)
