import { OpenAPIHono } from '@hono/zod-openapi'
import { requireApiKey } from '../http/api-key.js'
import { jsonObjectBody } from '../http/json-body.js'
import { jsonBytes } from '../http/json-bytes.js'
import type { ItemStore } from '../store/item-store.js'
import type { StoredItem } from './item.schema.js'
import {
  createItemRoute,
  deleteItemRoute,
  getItemRoute,
  listItemsRoute,
  updateItemRoute,
} from './items.routes.js'
import { rejectReservedFields } from './reject-reserved-fields.js'

/** Largest accepted item body. */
export const maxItemBodyBytes = 64 * 1024

const notFound = (id: string) => ({ error: `item '${id}' not found` })

/**
 * The `/items` routes over a store. Every mutation answers the complete list.
 * @param apiKey when set, POST/PUT/DELETE need it in `x-apikey`; reads stay public.
 */
export function itemsApp({ store, apiKey }: { store: ItemStore; apiKey?: string | undefined }) {
  const app = new OpenAPIHono()
  // Guards on exactly the routes that write, ahead of their validators and handlers.
  const writeGuard = requireApiKey(apiKey)
  const bodyGuards = [...jsonObjectBody({ maxBytes: maxItemBodyBytes }), rejectReservedFields]
  app.post('/items', writeGuard, ...bodyGuards)
  app.put('/items/:id', writeGuard, ...bodyGuards)
  app.delete('/items/:id', writeGuard)

  return app
    .openapi(listItemsRoute, async (c) => jsonBytes<StoredItem[], 200>(c, await store.list(), 200))
    .openapi(getItemRoute, async (c) => {
      const { id } = c.req.valid('param')
      const item = await store.find(id)
      if (!item) return c.json(notFound(id), 404)
      return jsonBytes<StoredItem, 200>(c, item, 200)
    })
    .openapi(createItemRoute, async (c) => {
      const item = c.req.valid('json')
      await store.insert(item)
      return jsonBytes<StoredItem[], 201>(c, await store.list(), 201, {
        location: `/items/${encodeURIComponent(item.id)}`,
      })
    })
    .openapi(updateItemRoute, async (c) => {
      const { id } = c.req.valid('param')
      if (!(await store.update(id, c.req.valid('json')))) return c.json(notFound(id), 404)
      return jsonBytes<StoredItem[], 200>(c, await store.list(), 200)
    })
    .openapi(deleteItemRoute, async (c) => {
      const { id } = c.req.valid('param')
      if (!(await store.remove(id))) return c.json(notFound(id), 404)
      return jsonBytes<StoredItem[], 200>(c, await store.list(), 200)
    })
}

export type ItemsApp = ReturnType<typeof itemsApp>
