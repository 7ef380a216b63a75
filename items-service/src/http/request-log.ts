import type { MiddlewareHandler } from 'hono'
import { addResponseHeader } from './response-headers.js'

export type RequestLogVariables = { requestId: string }

const acceptableRequestId = /^[\w.:-]{1,128}$/
const unsafeInLine = /[\s\p{Cc}]/u
// One sequence per process, whichever path answers (the app or the Node entry's direct reads),
// so that no two requests share an id; the random prefix tells restarts apart.
const idPrefix = Math.floor(Math.random() * 0xffffff)
  .toString(16)
  .padStart(6, '0')
let sequence = 0
// One ISO timestamp per millisecond is enough, and formatting one per request is not free.
let stampedAt = 0
let stamp = ''

/** The caller's `x-request-id` when it is sane, otherwise a new id unique in this process. */
export function requestIdFor(given: string | undefined): string {
  return given && acceptableRequestId.test(given)
    ? given
    : `${idPrefix}-${(++sequence).toString(36)}`
}

/**
 * The log line of one answered request: time, id, method, path, status, ms since `startedAt`
 * (a `performance.now()` reading). `path` is the decoded path.
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
  // A %0A in the path arrives decoded: it must not start a forged log line.
  const safePath = unsafeInLine.test(path) ? encodeURI(path) : path
  return `${stamp} ${requestId} ${method} ${safePath} ${status} ${ms}ms\n`
}

/**
 * Gives each request an id (the caller's `x-request-id` when it is sane, otherwise a new one),
 * echoes it in the response and writes one line per request: time, id, method, path, status, ms.
 */
export function requestLog({
  write = (line: string) => process.stdout.write(line),
}: {
  write?: (line: string) => void
} = {}): MiddlewareHandler<{
  Variables: RequestLogVariables
}> {
  return async function logRequest(c, next) {
    const startedAt = performance.now()
    const requestId = requestIdFor(c.req.header('x-request-id'))
    c.set('requestId', requestId)
    addResponseHeader(c, 'x-request-id', requestId)
    await next()
    write(requestLine(requestId, c.req.method, c.req.path, c.res.status, startedAt))
  }
}
