import type { Context, TypedResponse } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { JSONParsed } from 'hono/utils/types'
import type { JsonBody } from '../store/item-store.js'
import { takeResponseHeaders } from './response-headers.js'

/**
 * Answers JSON that a store has already serialised, typed as `T` for the routes' schema and
 * the typed client, without parsing and re-serialising it.
 */
export function jsonBytes<T, S extends ContentfulStatusCode>(
  c: Context,
  body: JsonBody,
  status: S,
  extraHeaders: Record<string, string> = {},
): TypedResponse<JSONParsed<T>, S, 'json'> {
  const headers = takeResponseHeaders(c, { 'content-type': 'application/json', ...extraHeaders })
  // A Response of its own with plain headers: the node adapter's fast path (see response-headers).
  return new Response(body as BodyInit, { status, headers }) as unknown as TypedResponse<
    JSONParsed<T>,
    S,
    'json'
  >
}
