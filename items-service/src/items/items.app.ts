import { OpenAPIHono } from '@hono/zod-openapi'
import { jsonBytes } from '@movies-and-mail/http-kit'
import type { Context } from 'hono'
import {
  type ItemStore,
  PreconditionFailedError,
  type WriteCondition,
} from '../store/item-store.js'
import { ifMatchHolds, noneMatchHits } from './entity-tags.js'
import type { StoredItem } from './item.schema.js'
import { getItem, listItems } from './items.cached-reads.js'
import { answerItemQuery } from './items.query.js'
import { createItemRoute, deleteItemRoute, updateItemRoute } from './items.routes.js'
import { answerList } from './list-answer.js'

const notFound = (id: string) => ({ error: `item '${id}' not found` })
const stale = (id: string) => ({ error: `item '${id}' does not match If-Match` })

/** The write's `If-Match` as a condition for the store; none without the header. */
function conditionOf(c: Context): WriteCondition | undefined {
  const header = c.req.header('if-match')
  return header === undefined ? undefined : (etag) => ifMatchHolds(header, etag)
}

/**
 * A 304 with the tag and the headers every answer carries, and no body. Typed as no answer:
 * only a caller that sent If-None-Match itself gets it, so the typed client's answers stay the
 * bodies it can read.
 */
function notModified(c: Context, etag: string): never {
  return c.body(null, 304, { etag }) as never
}

/**
 * The `/items` routes over a store. Reads carry a strong `ETag` and answer `If-None-Match`;
 * `PUT` and `DELETE` honour `If-Match`. Every mutation answers the complete list and its tag.
 * The writes' guards (API key, body checks) are declared in their route configs
 * (`items.routes.ts`).
 */
export function itemsApp({ store }: { store: ItemStore }) {
  /** Runs a write under the request's `If-Match`: true when done, else the status to answer. */
  const write = async (c: Context, run: (condition?: WriteCondition) => Promise<boolean>) => {
    const condition = conditionOf(c)
    try {
      if (await run(condition)) return true
      return condition ? 412 : 404
    } catch (error) {
      if (error instanceof PreconditionFailedError) return 412
      throw error
    }
  }
  const list = async () => store.listTagged()
  return new OpenAPIHono()
    .openapi(listItems.route, async (c) => {
      // `/items` and `/items?` alike: with no query, exactly the list.
      if (new URL(c.req.url).search !== '') return answerItemQuery(c, store)
      return answerList(c, await listItems.read(store))
    })
    .openapi(getItem.route, async (c) => {
      const { id } = c.req.valid('param')
      const item = await getItem.read(store, { id })
      if (!item) return c.json(notFound(id), 404)
      if (noneMatchHits(c.req.header('if-none-match'), item.etag)) return notModified(c, item.etag)
      return jsonBytes<StoredItem, 200>(c, item.body, 200, { etag: item.etag })
    })
    .openapi(createItemRoute, async (c) => {
      const item = c.req.valid('json')
      // Made before the write: nothing that can throw runs once the item is stored.
      const location = `/items/${encodeURIComponent(item.id)}`
      await store.insert(item)
      const { body, etag } = await list()
      return jsonBytes<StoredItem[], 201>(c, body, 201, { etag, location })
    })
    .openapi(updateItemRoute, async (c) => {
      const { id } = c.req.valid('param')
      const fields = c.req.valid('json')
      const done = await write(c, (condition) => store.update(id, fields, condition))
      if (done === 404) return c.json(notFound(id), 404)
      if (done === 412) return c.json(stale(id), 412)
      const { body, etag } = await list()
      return jsonBytes<StoredItem[], 200>(c, body, 200, { etag })
    })
    .openapi(deleteItemRoute, async (c) => {
      const { id } = c.req.valid('param')
      const done = await write(c, (condition) => store.remove(id, condition))
      if (done === 404) return c.json(notFound(id), 404)
      if (done === 412) return c.json(stale(id), 412)
      const { body, etag } = await list()
      return jsonBytes<StoredItem[], 200>(c, body, 200, { etag })
    })
}

export type ItemsApp = ReturnType<typeof itemsApp>
