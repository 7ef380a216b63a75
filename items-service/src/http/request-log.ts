import type { MiddlewareHandler } from 'hono'

export type RequestLogVariables = { requestId: string }

const acceptableRequestId = /^[\w.:-]{1,128}$/

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
  const prefix = Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')
  return async function logRequest(c, next) {
    const started = performance.now()
    const given = c.req.header('x-request-id')
    const requestId =
      given && acceptableRequestId.test(given) ? given : `${prefix}-${(++sequence).toString(36)}`
    c.set('requestId', requestId)
    c.header('x-request-id', requestId)
    await next()
    const ms = (performance.now() - started).toFixed(2)
    write(
      `${new Date().toISOString()} ${requestId} ${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms\n`,
    )
  }
}
