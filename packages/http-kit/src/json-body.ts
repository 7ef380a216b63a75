import { DeadlineExceededError, withDeadline } from '@movies-and-mail/store-kit'
import type { Context, MiddlewareHandler } from 'hono'
import { bodyTimeout, lateBodyMessage } from './body-read-first.js'
import { joinedBytes } from './joined-bytes.js'
import { keepParsedJsonBody } from './parsed-json-body.js'
import { parseStrictJson } from './strict-json.js'
import { closeConnection, unreadBodyHeaders } from './unread-body.js'

/**
 * What the service app keeps in the context for the body checks: BODY_TIMEOUT_MS, or Infinity
 * for none, where whoever handed the request on read its body whole within a deadline first.
 */
export type BodyTimeoutVariables = { bodyTimeoutMs: number }

/** A context as the body checks read it: an app other than the service app sets none. */
type BodyTimeoutEnv = { Variables: Partial<BodyTimeoutVariables> }

/** A body longer than the limit: its reading stops there. */
const tooLong = Symbol('too long')

/**
 * `application/json`, with parameters or without. Not `application/*+json`: those name formats
 * of their own (a merge patch, RFC 7396, deletes a field given `null`, where these writes store
 * the `null`), and a service that took them would answer as if it had understood them.
 */
const jsonContentType = /^application\/json\s*(?:;|$)/i

const requireJsonContentType: MiddlewareHandler = async (c, next) => {
  if (jsonContentType.test(c.req.header('content-type') ?? '')) return next()
  return c.json({ error: 'Content-Type must be application/json' }, 415, unreadBodyHeaders(c))
}

/**
 * The bytes of a body sent without a declared length (chunked), read as they come and counted:
 * past `maxBytes` the reading stops, the rest unread. hono's `bodyLimit` reads all of such a
 * body before the route goes on, so no deadline of the route's could bound it.
 */
async function countedBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array | typeof tooLong> {
  const chunks: Uint8Array[] = []
  let length = 0
  const reader = body?.getReader()
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    length += read.value.byteLength
    if (length > maxBytes) {
      reader?.cancel().catch(() => {})
      return tooLong
    }
    chunks.push(read.value)
  }
  return joinedBytes(chunks, length)
}

/** The checks of a whole body's JSON, then the route; see `jsonObjectBody`. */
async function parseJsonObject(c: Context, bytes: Uint8Array, next: () => Promise<void>) {
  const parsed = parseStrictJson(bytes)
  if (!parsed.ok && parsed.syntax) return c.json({ error: 'request body is not valid JSON' }, 400)
  if (!parsed.ok) return c.json({ error: 'invalid request body', issues: parsed.issues }, 400)
  const { value, text } = parsed
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return c.json({ error: 'request body must be a JSON object' }, 400)
  }
  // The value for the checks that follow (`parsedJsonBody`), and the text as checked, BOM gone,
  // for whatever reads the body through Hono (which keeps a promise of each body it read there,
  // whatever its declared type says).
  keepParsedJsonBody(c, value)
  Object.assign(c.req.bodyCache, { text: Promise.resolve(text) })
  return next()
}

/**
 * Admits only JSON object bodies of at most `maxBytes`: 415 for another content type, 413 when
 * larger (a declared length at once, a chunked body as it streams; either way the connection
 * closes after the response, the rest not read for the route), 408 for a body that did not
 * arrive within BODY_TIMEOUT_MS (the connection closes: a client that sends a byte a second
 * must not hold it for minutes), 400 for JSON that does not parse or is not an object, and 400
 * naming the fields for JSON that would not be kept as sent (`parseStrictJson`: bytes that are
 * not UTF-8, a lone surrogate, a number out of range or rounded, a name given twice). The
 * checked text stays cached for the validators that follow.
 */
export function jsonObjectBody({ maxBytes }: { maxBytes: number }): MiddlewareHandler[] {
  const tooLarge = (c: Context) =>
    c.json({ error: `request body is larger than ${maxBytes} bytes` }, 413, closeConnection)
  const readAndParse: MiddlewareHandler<BodyTimeoutEnv> = async (c, next) => {
    const chunked = c.req.header('transfer-encoding') !== undefined
    const declared = chunked ? undefined : c.req.header('content-length')
    // A declared length is checked from the header alone, and such a body read whole with
    // `arrayBuffer()`: the node adapter then reads it straight from the socket, instead of
    // building a whole web Request to stream it through (half the CPU of a small PUT).
    if (declared !== undefined && Number(declared) > maxBytes) return tooLarge(c)
    const ms = c.get('bodyTimeoutMs') ?? bodyTimeout.defaultMs
    let bytes: Uint8Array | typeof tooLong
    try {
      const read = async () =>
        declared === undefined
          ? countedBody(c.req.raw.body, maxBytes)
          : new Uint8Array(await c.req.arrayBuffer())
      // No deadline, no timer: the body is in memory already.
      bytes = ms === Number.POSITIVE_INFINITY ? await read() : await withDeadline(ms, read)
    } catch (error) {
      if (!(error instanceof DeadlineExceededError)) throw error
      return c.json({ error: lateBodyMessage(ms) }, 408, closeConnection)
    }
    if (bytes === tooLong) return tooLarge(c)
    return parseJsonObject(c, bytes, next)
  }
  return [requireJsonContentType, readAndParse]
}
