import type { Context } from 'hono'

/** `Connection: close`: Node closes the socket after the response, reading no more of it. */
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
