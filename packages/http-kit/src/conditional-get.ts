import type { Context, TypedResponse } from 'hono'
import type { JSONParsed } from 'hono/utils/types'
import { taggedJsonBytes } from './json-bytes.js'

/** What a tagged response's bytes may come as: in memory, as a `Blob`, or as a stream of them. */
export type TaggedBody = Uint8Array | Blob | ReadableStream<Uint8Array>

/**
 * Bytes (or a `Blob` or stream of them) and the strong entity tag that names them (quoted, as
 * the `ETag` header carries it).
 */
export type Tagged<Body extends TaggedBody = Uint8Array> = { body: Body; etag: string }

/**
 * The response to a GET of tagged bytes, for any server to write: 304 without a body, or 200. Its
 * `headers` are the representation's (type, coding, `Vary`), to be sent with `etag`; they may be
 * the very object given, so a server answering at a high rate can pass constants.
 */
export type TaggedResponse<Body extends TaggedBody = Uint8Array> =
  | { status: 200; etag: string; headers: Readonly<Record<string, string>>; body: Body }
  | { status: 304; etag: string; headers: Readonly<Record<string, string>>; body: null }

/** What a 304 repeats of the 200 it stands for (RFC 9110 §15.4.5); the rest describes a body. */
const keptBy304 = ['cache-control', 'vary']
const noHeaders: Readonly<Record<string, string>> = {}
/** The part a 304 keeps of each headers object seen, made once per object. */
const keptOf = new WeakMap<object, Readonly<Record<string, string>>>()

function keptBy304Of(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  let kept = keptOf.get(headers)
  if (kept === undefined) {
    const picked: Record<string, string> = {}
    for (const name of keptBy304) if (headers[name] !== undefined) picked[name] = headers[name]
    kept = picked
    keptOf.set(headers, kept)
  }
  return kept
}

/**
 * Whether an `If-None-Match` header names `etag`: `*`, or a list holding it. The comparison is
 * weak (RFC 9110 §13.1.2): `W/"x"` matches `"x"`.
 */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  // A client sends back the one tag it was given: answered without taking the header apart.
  if (header === etag) return true
  if (header.trim() === '*') return true
  return header.split(',').some((listed) => {
    const tag = listed.trim()
    return (tag.startsWith('W/') ? tag.slice(2) : tag) === etag
  })
}

/**
 * The one place a GET is decided between 304 and 200: 304 when `If-None-Match` names the tag
 * of `tagged`, with what a 304 keeps of `headers`; otherwise 200 with the bytes and `headers`
 * (their type, coding, `Vary`). Both micros' routes answer their tagged reads through it;
 * every response carries the tag. Not hono's `etag`: it decides after the handler has made the
 * whole response (hashing the body when it has no tag), where here the store's tag decides before.
 * @example taggedResponse(list, request.headers['if-none-match'], { 'content-type': 'application/json' })
 */
export function taggedResponse<Body extends TaggedBody = Uint8Array>(
  tagged: Tagged<Body>,
  ifNoneMatch: string | undefined,
  headers: Readonly<Record<string, string>> = noHeaders,
): TaggedResponse<Body> {
  if (noneMatchHits(ifNoneMatch, tagged.etag)) {
    // A stream not sent is let go, so that whoever streams it stops.
    if (tagged.body instanceof ReadableStream) void tagged.body.cancel()
    return { status: 304, etag: tagged.etag, headers: keptBy304Of(headers), body: null }
  }
  return { status: 200, etag: tagged.etag, headers, body: tagged.body }
}

/**
 * `response` (what `taggedResponse` decided) as a Hono route's response, typed as JSON of `T` for
 * the route's schema and the typed client; a 304 carries no body, and what a 304 keeps of the
 * headers.
 */
export function sendTaggedResponse<T>(
  c: Context,
  response: TaggedResponse<TaggedBody>,
): TypedResponse<JSONParsed<T>, 200 | 304, 'json'> {
  return response.status === 304
    ? taggedJsonBytes<T, 304>(c, null, 304, response.headers, response.etag)
    : taggedJsonBytes<T, 200>(c, response.body, 200, response.headers, response.etag)
}
