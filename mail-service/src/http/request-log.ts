import type { MiddlewareHandler } from 'hono'
import { requestId } from 'hono/request-id'

/**
 * Gives every request an id (`x-request-id`, taken from the caller when well-formed) and
 * writes one line per request once it is answered: method, path, status, milliseconds, id.
 * Only the path is logged, never headers or bodies, so no key can reach the log.
 */
export function requestLog(log: (line: string) => void = console.log): MiddlewareHandler[] {
  const line: MiddlewareHandler = async (c, next) => {
    const started = performance.now()
    await next()
    const ms = (performance.now() - started).toFixed(1)
    log(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms ${c.get('requestId')}`)
  }
  return [requestId({ limitLength: 100 }), line]
}
