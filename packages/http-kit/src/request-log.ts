import type { MiddlewareHandler } from 'hono'
import { applyResponseHeaders, type ResponseHeadersVariables } from './response-headers.js'
import { safeInLine } from './safe-in-line.js'

export type RequestLogVariables = ResponseHeadersVariables & { requestId: string }

const acceptableRequestId = /^[\w.:-]{1,128}$/
// The random prefix tells the ids of one process from those of the next. Made on first use:
// the Workers runtime allows no random values while a module loads.
let idPrefix = ''
let sequence = 0
// One ISO timestamp per millisecond is enough, and formatting one per request is not free.
let stampedAt = 0
let stamp = ''

/** The caller's `x-request-id` when it is sane, otherwise a new id unique in this process. */
export function requestIdFor(given: string | undefined): string {
  if (given && acceptableRequestId.test(given)) return given
  idPrefix ||= Array.from(crypto.getRandomValues(new Uint8Array(3)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
  return `${idPrefix}-${(++sequence).toString(36)}`
}

/**
 * The log line of one answered request: time, id, method, path, status, ms since `startedAt`
 * (a `performance.now()` reading). Whitespace and control characters in the path (a decoded
 * `%0A`, say) are percent-encoded, so that no path can end the line or forge another.
 */
export function requestLine(
  requestId: string,
  method: string,
  path: string,
  status: number,
  startedAt: number,
): string {
  const ms = (performance.now() - startedAt).toFixed(2)
  const now = Date.now()
  if (now !== stampedAt) {
    stampedAt = now
    stamp = new Date(now).toISOString()
  }
  return `${stamp} ${requestId} ${method} ${safeInLine(path)} ${status} ${ms}ms\n`
}

/**
 * The first middleware of both micros. Gives each request an id (the caller's `x-request-id`
 * when sane, otherwise a new one) and echoes it; gives every answer `X-Content-Type-Options:
 * nosniff`, so that no browser takes a JSON answer that echoes input for a script or a page;
 * and writes one line per request: time, id, method, path, status, ms. Only the path is logged,
 * never headers or bodies, so no key reaches the log. The headers are collected as a plain
 * object (see `response-headers.ts`).
 * @example app.use(requestLog({ write: (line) => process.stdout.write(line) }))
 */
export function requestLog({
  write,
}: {
  /** Takes each line, newline included. */
  write: (line: string) => void
}): MiddlewareHandler<{ Variables: RequestLogVariables }> {
  return async function logRequest(c, next) {
    const startedAt = performance.now()
    const requestId = requestIdFor(c.req.header('x-request-id'))
    c.set('requestId', requestId)
    // A literal, not a copy of a shared object: V8 builds it from one template, as cheap as `{}`.
    c.set('responseHeaders', { 'x-content-type-options': 'nosniff', 'x-request-id': requestId })
    await next()
    applyResponseHeaders(c)
    write(requestLine(requestId, c.req.method, c.req.path, c.res.status, startedAt))
  }
}
