import { createHash } from 'node:crypto'
import { jsonBytes } from '@movies-and-mail/http-kit'
import type { Context } from 'hono'
import type { ItemPage, ItemStore } from '../store/item-store.js'
import { noneMatchHits } from './entity-tags.js'
import type { StoredItem } from './item.schema.js'
import { encodeCursor } from './item-query.cursor.js'
import { parseItemQuery } from './item-query.js'

/**
 * `GET /items` with a query string (README › Query): filters, sort, a page. A refused parameter
 * answers 400 naming it, before the store is asked. A page with more after it links the next
 * in `Link`. The `ETag` is a SHA-256 of the page and of its next page's cursor, so a tag names
 * the same answer whichever instance (or store) made it, and a 304 is never an answer whose
 * `Link` has since changed (an item added after a page's last makes a next page appear).
 */
export async function answerItemQuery(c: Context, store: ItemStore) {
  const parsed = parseItemQuery(new URL(c.req.url).search)
  if ('issues' in parsed) {
    return c.json({ error: 'invalid query parameter', issues: parsed.issues }, 400)
  }
  const { query, parameters } = parsed
  const page: ItemPage = await store.query(query)
  const cursor = page.next && encodeCursor(page.next, query.sort)
  const hash = createHash('sha256').update(page.body)
  if (cursor !== undefined) hash.update(`\n${cursor}`)
  const etag = `"${hash.digest('base64url')}"`
  if (noneMatchHits(c.req.header('if-none-match'), etag)) {
    return c.body(null, 304, { etag }) as never
  }
  const headers: Record<string, string> = { etag }
  if (cursor !== undefined) {
    headers.link = `</items?${parameters && `${parameters}&`}cursor=${cursor}>; rel="next"`
  }
  return jsonBytes<StoredItem[], 200>(c, page.body, 200, headers)
}
