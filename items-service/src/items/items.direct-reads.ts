import type { IncomingMessage, RequestListener } from 'node:http'
import { corsPolicy } from '../http/cors.js'
import { requestIdFor, requestLine } from '../http/request-log.js'
import type { MemoryReads } from '../store/item-store.js'

/**
 * Ids answered directly: characters a URL path carries as they are, so there is nothing to
 * decode, and not `.` or `..`. The app's schema accepts every such id; any other goes to it.
 */
const plainId = /^(?!\.\.?$)[\w.~:@-]{1,200}$/
/** Host headers the node adapter takes as they are; it checks any other, and may refuse it. */
const plainHost = /^[a-z0-9._-]+(?::(\d{1,5}))?$/i

export type DirectReadsOptions = {
  reads: MemoryReads
  /** As given to `createApp`. */
  corsOrigins: readonly string[]
  /** As given to `createApp`. */
  log: (line: string) => void
}

/**
 * Puts the reads that browser apps poll, `GET /items` and `GET /items/<id>` of an item that
 * exists, in front of `app` (the app's Node listener), answered from the store's memory by
 * node:http alone. For answers this small, the node adapter's request and response objects and
 * Hono's dispatch cost more than the answer itself (README › Performance).
 *
 * An answer is the app's own to the byte: same body and status, same request id, CORS and
 * `X-Content-Type-Options` headers and log line, from the same helpers, and a test compares
 * the two paths request by request.
 * Anything else (another method, HEAD, a query, an id to decode or to refuse, an unknown id, an
 * unusual Host) goes to `app`, which stays the one definition of every route.
 * @example createServer(withDirectReads(getRequestListener(app.fetch), { reads, corsOrigins, log }))
 */
export function withDirectReads(
  app: RequestListener,
  { reads, corsOrigins, log }: DirectReadsOptions,
): RequestListener {
  const cors = corsPolicy({ origins: corsOrigins })

  function readFor(request: IncomingMessage): Uint8Array | null {
    if (request.method !== 'GET') return null
    const url = request.url ?? ''
    if (url === '/items') return hasPlainHost(request) ? reads.listNow() : null
    if (!url.startsWith('/items/')) return null
    const id = url.slice('/items/'.length)
    return plainId.test(id) && hasPlainHost(request) ? reads.findNow(id) : null
  }

  return function answerDirectly(request, response) {
    const startedAt = performance.now()
    const body = readFor(request)
    if (body === null) return app(request, response)
    const given = request.headers['x-request-id']
    const requestId = requestIdFor(typeof given === 'string' ? given : undefined)
    // The constant header is part of the literal, which V8 builds from one template.
    const headers: Record<string, string | number> = {
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    }
    cors.addAnswerHeaders(request.headers.origin, (name, value) => {
      headers[name] = value
    })
    headers['content-type'] = 'application/json'
    headers['content-length'] = body.byteLength
    response.writeHead(200, headers).end(body)
    log(requestLine(requestId, 'GET', request.url as string, 200, startedAt))
  }
}

function hasPlainHost(request: IncomingMessage): boolean {
  const match = plainHost.exec(request.headers.host ?? '')
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65_535)
}
