import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { RequestError } from '@hono/node-server'
import { requestIdFor } from '../request-log.js'

/** node:http's status for what its parser refused, by the error's code, as its own default. */
const statusByCode: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
}

const reasons: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
}

/** The request line a client wrote cannot be trusted to be printable: the message is ours. */
const messages: Record<number, string> = {
  400: 'malformed request',
  408: 'request not complete in time',
  413: 'chunk extensions too large',
  431: 'request headers too large',
}

/** An answer written on the socket itself, for a request the app never sees. */
function rawAnswer(status: number, error: string): string {
  const body = JSON.stringify({ error })
  return [
    `HTTP/1.1 ${status} ${reasons[status]}`,
    'content-type: application/json',
    'x-content-type-options: nosniff',
    `x-request-id: ${requestIdFor(undefined)}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n')
}

/**
 * Answers in JSON what node:http cannot read as a request, where its defaults answer a bare
 * status line or nothing: what its parser refuses (a malformed request line or header, headers
 * over the limit, a request not whole in time: 400, 431, 413, 408, the statuses it would send),
 * and CONNECT, which it hands to a proxy's `'connect'` listener and otherwise drops (400: this
 * is not a proxy). The app never sees these: they carry nosniff and a request id, no CORS
 * headers (no browser sends them), and have no log line. As node:http does, nothing is written
 * into an answer already under way, and the connection is closed.
 * @example answerUnreadableRequests(createServer(listener))
 */
export function answerUnreadableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // node:http's own guard: the answer it holds for the connection, if any, not yet begun.
    const inFlight = (socket as { _httpMessage?: { headersSent: boolean } })._httpMessage
    if (socket.writable && !inFlight?.headersSent) {
      const status = statusByCode[error.code ?? ''] ?? 400
      socket.write(rawAnswer(status, messages[status] as string))
    }
    socket.destroy()
  })
  server.on('connect', (_request, socket: Duplex) => {
    socket.end(rawAnswer(400, 'CONNECT is for proxies, and this is not one'))
  })
}

/**
 * The adapter's answer to a request it could not make a web `Request` of (`errorHandler` of
 * `getRequestListener`): an asterisk or an absolute URL it refuses, a Host header that is no
 * host, a backslash in the path: 400 in JSON, where the adapter's own is an empty 400. Anything
 * else is the app's to answer (its `onError`), so it only reaches here as a 500.
 */
export function adapterErrorResponse(error: unknown): Response {
  const refused = error instanceof RequestError
  const headers = { 'x-content-type-options': 'nosniff', 'x-request-id': requestIdFor(undefined) }
  return Response.json(
    { error: refused ? `malformed request: ${error.message}` : 'internal error' },
    { status: refused ? 400 : 500, headers },
  )
}
