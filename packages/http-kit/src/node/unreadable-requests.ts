import { type Server, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { RequestError } from '@hono/node-server'
import { requestIdFor } from '../request-log.js'

/** node:http's status for what its parser refused, by the error's code, as its own default. */
const statusByCode: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
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
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'content-type: application/json',
    'x-content-type-options: nosniff',
    `x-request-id: ${requestIdFor(undefined)}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n')
}

/** A connection as node:http holds it: the answer under way on it, if any. */
type HeldSocket = Duplex & { _httpMessage?: ServerResponse | null }

/**
 * Runs `then` once the connection has sent every answer owed to whole requests read before
 * (pipelined): written before them, a refusal would be read as the answer to the first. A request
 * whose body broke is not whole: the refusal is its answer, unless its answer has begun (`then`
 * is given it). node:http hands the connection to the next answer owed in its own `'finish'`
 * listener, which runs first. An owed answer cut off ends the connection: nothing after it can be
 * read in order.
 */
function afterOwedAnswers(socket: HeldSocket, then: (begun: boolean) => void): void {
  const owed = socket._httpMessage
  if (!owed?.req.complete) {
    then(owed?.headersSent ?? false)
    return
  }
  owed.once('finish', () => afterOwedAnswers(socket, then))
  owed.once('close', () => {
    if (!owed.writableFinished) socket.destroy()
  })
}

/**
 * Answers in JSON what node:http cannot read as a request, where its defaults answer a bare
 * status line or nothing: what its parser refuses (a malformed request line or header, headers
 * over the limit, a request not whole in time: 400, 431, 413, 408, the statuses it would send),
 * and CONNECT, which it hands to a proxy's `'connect'` listener and otherwise drops (400: this
 * is not a proxy). The app never sees these: they carry nosniff and a request id, no CORS
 * headers (no browser sends them), and have no log line. The answers owed to requests before it
 * on the connection go first, then the refusal, then the connection is closed.
 * @example answerUnreadableRequests(createServer(listener))
 */
export function answerUnreadableRequests(server: Server): void {
  // node:http calls this again for every later read of a connection whose parser has failed.
  const refused = new WeakSet<Duplex>()
  server.on('clientError', (error: NodeJS.ErrnoException, socket: HeldSocket) => {
    if (refused.has(socket)) return
    refused.add(socket)
    const status = statusByCode[error.code ?? ''] ?? 400
    afterOwedAnswers(socket, (begun) => {
      if (socket.writable && !begun) socket.write(rawAnswer(status, messages[status] as string))
      socket.destroy()
    })
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
