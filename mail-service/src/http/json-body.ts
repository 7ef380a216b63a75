import { closeConnection, unreadBodyHeaders } from '@movies-and-mail/http-kit'
import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'

const jsonContentType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/**
 * Admits only JSON object bodies of at most `maxBytes`: 415 for another content type, 413 when
 * larger (a declared length at once, chunked bodies as they stream; either way the connection
 * closes after the answer, the rest unread), 400 for JSON that does not parse or is not an
 * object. The parsed body stays cached for the validator that follows.
 */
export function jsonObjectBody({ maxBytes }: { maxBytes: number }): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      c.json({ error: `request body is larger than ${maxBytes} bytes` }, 413, closeConnection),
  })
  return async function admitJsonObject(c, next) {
    if (!jsonContentType.test(c.req.header('content-type') ?? '')) {
      return c.json({ error: 'Content-Type must be application/json' }, 415, unreadBodyHeaders(c))
    }
    return limit(c, async () => {
      let body: unknown
      try {
        body = await c.req.json()
      } catch {
        c.res = c.json({ error: 'request body is not valid JSON' }, 400)
        return
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        c.res = c.json({ error: 'request body must be a JSON object' }, 400)
        return
      }
      await next()
    })
  }
}
