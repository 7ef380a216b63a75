import type { Context } from 'hono'

/**
 * `Connection: close`: the connection closes after the response, the rest of the body not read
 * to keep it (on Node in stages, so that a client still sending gets the answer: lingering-close).
 */
export const closeConnection: Record<string, string> = { connection: 'close' }

/**
 * Headers for a response given before the request's body is read (401, 413, 415): with a body
 * on its way, `Connection: close`. Node would otherwise read and discard the whole body to
 * keep the connection, however large it says it is.
 */
export function unreadBodyHeaders(c: Context): Record<string, string> | undefined {
  const length = c.req.header('content-length')
  const hasBody =
    (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined
  return hasBody ? closeConnection : undefined
}
