import type { MiddlewareHandler } from 'hono'
import { addResponseHeader } from './response-headers.js'

export type RequestLogVariables = { requestId: string }

const acceptableRequestId = /^[\w.:-]{1,128}$/
const unsafeInLine = /[\s\p{Cc}]/u

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
  let sequence = 0
  // One ISO timestamp per millisecond is enough, and formatting one per request is not free.
  let stampedAt = 0
  let stamp = ''
  const prefix = Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')
  return async function logRequest(c, next) {
    const started = performance.now()
    const given = c.req.header('x-request-id')
    const requestId =
      given && acceptableRequestId.test(given) ? given : `${prefix}-${(++sequence).toString(36)}`
    c.set('requestId', requestId)
    addResponseHeader(c, 'x-request-id', requestId)
    await next()
    const ms = (performance.now() - started).toFixed(2)
    const now = Date.now()
    if (now !== stampedAt) {
      stampedAt = now
      stamp = new Date(now).toISOString()
    }
    // The path arrives decoded: a %0A in it must not start a forged log line.
    const path = unsafeInLine.test(c.req.path) ? encodeURI(c.req.path) : c.req.path
    write(`${stamp} ${requestId} ${c.req.method} ${path} ${c.res.status} ${ms}ms\n`)
  }
}
