import type { MiddlewareHandler } from 'hono'
import { addResponseHeader } from './response-headers.js'

export type CorsOptions = {
  /** `['*']` for any origin, otherwise the exact origins allowed. */
  origins: readonly string[]
  allowMethods?: readonly string[]
  allowHeaders?: readonly string[]
  exposeHeaders?: readonly string[]
  maxAgeSeconds?: number
}

/**
 * CORS for browser apps: answers preflights itself and adds the allow headers to every
 * response before the handler runs, leaving the response to the node adapter's fast path
 * (hono's own `cors()` reads `c.res`, which takes it off that path).
 */
export function cors({
  origins,
  allowMethods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  allowHeaders = ['content-type', 'x-apikey', 'x-request-id'],
  exposeHeaders = ['location', 'x-request-id'],
  maxAgeSeconds = 600,
}: CorsOptions): MiddlewareHandler {
  const anyOrigin = origins.includes('*')
  const allowed = new Set(origins)
  const methods = allowMethods.join(', ')
  const headers = allowHeaders.join(', ')
  const exposed = exposeHeaders.join(', ')

  return async function applyCors(c, next) {
    const origin = c.req.header('origin')
    const allowOrigin = anyOrigin ? '*' : origin && allowed.has(origin) ? origin : undefined
    if (!anyOrigin) addResponseHeader(c, 'vary', 'Origin')
    if (allowOrigin) {
      addResponseHeader(c, 'access-control-allow-origin', allowOrigin)
      addResponseHeader(c, 'access-control-expose-headers', exposed)
    }
    const isPreflight =
      c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined
    if (!isPreflight) return next()
    if (allowOrigin) {
      addResponseHeader(c, 'access-control-allow-methods', methods)
      addResponseHeader(c, 'access-control-allow-headers', headers)
      addResponseHeader(c, 'access-control-max-age', String(maxAgeSeconds))
    }
    return c.body(null, 204)
  }
}
