import type { Context, TypedResponse } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { JSONParsed } from 'hono/utils/types'
import { takeResponseHeaders } from './response-headers.js'

/** A JSON document already serialised: bytes in memory, or a stream of them. */
export type JsonBody = Uint8Array | ReadableStream<Uint8Array>

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
