import type { Context, TypedResponse } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { JSONParsed } from 'hono/utils/types'
import type { JsonBody } from '../store/item-store.js'

/**
 * Answers JSON that a store has already serialised, typed as `T` for the routes' schema and
 * the typed client, without parsing and re-serialising it.
 */
export function jsonBytes<T, S extends ContentfulStatusCode>(
  c: Context,
  body: JsonBody,
  status: S,
): TypedResponse<JSONParsed<T>, S, 'json'> {
  c.header('content-type', 'application/json')
  // One cast for both kinds of body: hono's overloads name each separately, both work at run time.
  return c.body(body as Uint8Array<ArrayBuffer>, status) as unknown as TypedResponse<
    JSONParsed<T>,
    S,
    'json'
  >
}
