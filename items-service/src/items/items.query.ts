import type { Context } from 'hono'
import type { ItemStore } from '../store/item-store.js'

/** `GET /items` with a query string (README › Query): filters, sort, a page. */
export async function answerItemQuery(c: Context, _store: ItemStore) {
  return c.json({ error: 'query is not yet implemented' }, 400)
}
