import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { DeadlineExceededError, withDeadline } from './deadline.js'
import { parseStrictJson } from './strict-json.js'
import { closeConnection, unreadBodyHeaders } from './unread-body.js'

/** What the service app keeps in the context for the body checks: BODY_TIMEOUT_MS. */
export type BodyTimeoutVariables = { bodyTimeoutMs: number }

/** How long a body may take to arrive where the app set no BODY_TIMEOUT_MS. */
const defaultBodyTimeoutMs = 30_000

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
 * The body's bytes, or null when they did not all arrive within the app's BODY_TIMEOUT_MS: a
 * client that sends a byte a second must not hold a connection for minutes.
 */
async function bodyWithin(c: Context, ms: number): Promise<ArrayBuffer | null> {
  try {
    return await withDeadline(ms, () => c.req.arrayBuffer())
  } catch (error) {
    if (error instanceof DeadlineExceededError) return null
    throw error
  }
}

const parseJsonObject: MiddlewareHandler = async (c, next) => {
  const ms =
    (c as Context<{ Variables: BodyTimeoutVariables }>).get('bodyTimeoutMs') ?? defaultBodyTimeoutMs
  const bytes = await bodyWithin(c, ms)
  if (bytes === null) {
    const error = `the request body did not arrive within ${ms / 1000} s`
    return c.json({ error }, 408, closeConnection)
  }
  const parsed = parseStrictJson(new Uint8Array(bytes))
  if (!parsed.ok && parsed.syntax) return c.json({ error: 'request body is not valid JSON' }, 400)
  if (!parsed.ok) return c.json({ error: 'invalid request body', issues: parsed.issues }, 400)
  const { value, text } = parsed
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return c.json({ error: 'request body must be a JSON object' }, 400)
  }
  // What `c.req.json()` parses for the validators that follow: the text as checked, BOM gone.
  // Hono keeps a promise of each body it read there, whatever its declared type says.
  Object.assign(c.req.bodyCache, { text: Promise.resolve(text) })
  return next()
}

/**
 * Admits only JSON object bodies of at most `maxBytes`: 415 for another content type, 413 when
 * larger (a declared length at once, a chunked body as it streams; either way the connection
 * closes after the answer, the rest unread), 400 for JSON that does not parse or is not an
 * object, 408 for a body that did not arrive within BODY_TIMEOUT_MS (the connection closes),
 * and 400 naming the fields for JSON that would not be kept as sent (`parseStrictJson`:
 * bytes that are not UTF-8, a lone surrogate, a number out of range or rounded, a name given
 * twice). The checked text stays cached for the validators that follow.
 */
export function jsonObjectBody({ maxBytes }: { maxBytes: number }): MiddlewareHandler[] {
  const tooLarge = (c: Context) =>
    c.json({ error: `request body is larger than ${maxBytes} bytes` }, 413, closeConnection)
  const countWhileStreaming = bodyLimit({ maxSize: maxBytes, onError: tooLarge })
  // A declared length is checked from the header alone. hono's bodyLimit reads the request's
  // `body` first, which makes the node adapter build a whole web Request and stream the body
  // through it, instead of reading it straight from the socket: half the CPU of a small PUT.
  const limit: MiddlewareHandler = async (c, next) => {
    const declared = c.req.header('content-length')
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) {
      return countWhileStreaming(c, next)
    }
    return Number(declared) > maxBytes ? tooLarge(c) : next()
  }
  return [requireJsonContentType, limit, parseJsonObject]
}
