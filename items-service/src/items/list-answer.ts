import { jsonBytes } from '@movies-and-mail/http-kit'
import type { Context } from 'hono'
import type { TaggedJson } from '../store/item-store.js'
import { noneMatchHits } from './entity-tags.js'
import type { StoredItem } from './item.schema.js'

/** `GET /items` without a query: the list's bytes with their tag, or 304 when the tag matches. */
export function answerList(c: Context, { body, etag }: TaggedJson) {
  if (noneMatchHits(c.req.header('if-none-match'), etag)) {
    return c.body(null, 304, { etag }) as never
  }
  return jsonBytes<StoredItem[], 200>(c, body, 200, { etag })
}
