import type { Context, TypedResponse } from 'hono'
import type { StatusCode } from 'hono/utils/http-status'
import type { JSONParsed } from 'hono/utils/types'
// Swapped per runtime (package.json `imports`): the Worker builds, condition `workerd`, get
// `response-body.workerd.ts` (a body sent again is sent as one Blob); Node, the tests and every
// other build get `response-body.ts` (the bytes as they are).
import { responseBody } from '#response-body'
import { responseWithHeaders, responseWithTag } from './response-headers.js'

/** A JSON document already serialised: bytes in memory, a `Blob` of them, or a stream. */
export type JsonBody = Uint8Array | Blob | ReadableStream<Uint8Array>

/**
 * Answers JSON that a store has already serialised, without parsing and serialising it again
 * (`null`: no body, for a 304), typed as JSON of `T` for the route's schema and the typed
 * client. Hono types JSON only when it serialises a value itself (`c.json`), and answers bytes
 * typed as a body: this is the one place that tells the types the bytes are the route's JSON.
 */
export function jsonBytes<T, S extends StatusCode>(
  c: Context,
  body: JsonBody | null,
  status: S,
  headers: Record<string, string> = {},
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const sent = { 'content-type': 'application/json', ...headers }
  const sentBody = body instanceof Uint8Array ? responseBody(body) : body
  // One record of all the response's headers, the request's among them: no `Headers` object.
  // A Node Buffer is a view of an ArrayBuffer; the web types allow a shared one as well.
  const answer = responseWithHeaders(
    c,
    sentBody as Uint8Array<ArrayBuffer> | Blob | ReadableStream | null,
    status,
    sent,
  )
  // The brand is type-only, as on hono's own `c.json` answers: the response is narrowed, not changed.
  return answer as Response & TypedResponse<JSONParsed<T>, S, 'json'>
}

/** Each representation's headers with the JSON type, where they do not name a type (a 304's). */
const typed = new WeakMap<object, Readonly<Record<string, string>>>()
function withJsonType(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (headers['content-type'] !== undefined) return headers
  let made = typed.get(headers)
  if (made === undefined) {
    made = { 'content-type': 'application/json', ...headers }
    typed.set(headers, made)
  }
  return made
}

/**
 * `jsonBytes` for a tagged read: `representation` is the same record from one read to the next
 * (a route keeps one per type and coding), so the response's headers are a copy of a record
 * made once, with the request's id and `etag` set in it (`responseWithTag`).
 */
export function taggedJsonBytes<T, S extends StatusCode>(
  c: Context,
  body: JsonBody | null,
  status: S,
  representation: Readonly<Record<string, string>>,
  etag: string,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const sentBody = body instanceof Uint8Array ? responseBody(body) : body
  const answer = responseWithTag(
    c,
    sentBody as Uint8Array<ArrayBuffer> | Blob | ReadableStream | null,
    status,
    withJsonType(representation),
    etag,
  )
  return answer as Response & TypedResponse<JSONParsed<T>, S, 'json'>
}
