import {
  jsonBytes,
  type ResponseHeadersVariables,
  takeResponseHeaders,
} from '@movies-and-mail/http-kit'
import type { Context } from 'hono'
import type { TaggedJson } from '../store/item-store.js'
import { negotiateEncoding, varyWithAcceptEncoding } from './content-encoding.js'
import { noneMatchHits } from './entity-tags.js'
import type { StoredItem } from './item.schema.js'
import { listVariants } from './list-variants.js'

/**
 * `GET /items` without a query: the list's bytes, compressed (br or gzip) for a client that
 * accepts it, with the tag of the representation sent; 304 when `If-None-Match` names it.
 */
export function answerList(c: Context, list: TaggedJson) {
  const sent = listVariants.of(list, negotiateEncoding(c.req.header('accept-encoding')))
  const collected = (c as Context<{ Variables: ResponseHeadersVariables }>).get('responseHeaders')
  const headers: Record<string, string> = {
    etag: sent.etag,
    vary: varyWithAcceptEncoding(collected?.vary),
  }
  if (noneMatchHits(c.req.header('if-none-match'), sent.etag)) {
    // Built here, not with `c.body`: the headers CORS collected would overwrite `vary` after it.
    return new Response(null, { status: 304, headers: takeResponseHeaders(c, headers) }) as never
  }
  if (sent.coding !== undefined) headers['content-encoding'] = sent.coding
  return jsonBytes<StoredItem[], 200>(c, sent.body, 200, headers)
}
