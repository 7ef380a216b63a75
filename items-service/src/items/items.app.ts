import { OpenAPIHono } from '@hono/zod-openapi'
import { jsonBytes } from '@movies-and-mail/http-kit'
import type { ItemStore } from '../store/item-store.js'
import type { StoredItem } from './item.schema.js'
import { getItem, listItems } from './items.cached-reads.js'
import { createItemRoute, deleteItemRoute, updateItemRoute } from './items.routes.js'

const notFound = (id: string) => ({ error: `item '${id}' not found` })

/**
 * The `/items` routes over a store. Every mutation answers the complete list. The writes'
 * guards (API key, body checks) are declared in their route configs (`items.routes.ts`).
 */
export function itemsApp({ store }: { store: ItemStore }) {
  return new OpenAPIHono()
    .openapi(listItems.route, async (c) => {
      const list = await listItems.read(store)
      return jsonBytes<StoredItem[], 200>(c, list, 200)
    })
    .openapi(getItem.route, async (c) => {
      const { id } = c.req.valid('param')
      const item = await getItem.read(store, { id })
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
