import type { MiddlewareHandler } from 'hono'

export type CorsOptions = {
  /** `['*']` for any origin, otherwise the exact origins allowed. */
  origins: readonly string[]
  allowMethods?: readonly string[]
  allowHeaders?: readonly string[]
  exposeHeaders?: readonly string[]
  maxAgeSeconds?: number
}

/**
 * CORS for browser apps on other origins: answers preflights itself (204) and sets the allow
 * headers through `c.header()` before the handler runs, so error answers carry them too.
 * (hono's own `cors()` reads `c.res` afterwards, which costs the node adapter its fast path.)
 */
export function cors({
  origins,
  allowMethods = ['GET', 'HEAD', 'POST', 'OPTIONS'],
  allowHeaders = ['content-type', 'x-apikey', 'x-request-id'],
  exposeHeaders = ['x-request-id'],
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
    if (!anyOrigin) c.header('vary', 'Origin')
    if (allowOrigin) {
      c.header('access-control-allow-origin', allowOrigin)
      c.header('access-control-expose-headers', exposed)
    }
    const isPreflight =
      c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined
    if (!isPreflight) return next()
    if (allowOrigin) {
      c.header('access-control-allow-methods', methods)
      c.header('access-control-allow-headers', headers)
      c.header('access-control-max-age', String(maxAgeSeconds))
    }
    return c.body(null, 204)
  }
}
