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

/** Which CORS headers an answer to a request from a given origin carries. */
export type CorsPolicy = {
  /** The headers every answer carries; true when `origin` may read it. */
  addAnswerHeaders(origin: string | undefined, add: (name: string, value: string) => void): boolean
  /** The headers a preflight's answer carries on top, for an allowed origin. */
  addPreflightHeaders(add: (name: string, value: string) => void): void
}

/**
 * The CORS rules for browser apps: which origins may read answers, and what a preflight allows.
 */
export function corsPolicy({
  origins,
  allowMethods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  allowHeaders = [
    'content-type',
    'idempotency-key',
    'if-match',
    'if-none-match',
    // A follower of the change feed resumes with it; it is not a safelisted header.
    'last-event-id',
    'x-apikey',
    'x-request-id',
  ],
  exposeHeaders = [
    'etag',
    'idempotent-replayed',
    'link',
    'location',
    'retry-after',
    'x-request-id',
  ],
  maxAgeSeconds = 600,
}: CorsOptions): CorsPolicy {
  const anyOrigin = origins.includes('*')
  const allowed = new Set(origins)
  const methods = allowMethods.join(', ')
  const headers = allowHeaders.join(', ')
  const exposed = exposeHeaders.join(', ')
  return {
    addAnswerHeaders(origin, add) {
      const allowOrigin = anyOrigin ? '*' : origin && allowed.has(origin) ? origin : undefined
      if (!anyOrigin) add('vary', 'Origin')
      if (!allowOrigin) return false
      add('access-control-allow-origin', allowOrigin)
      add('access-control-expose-headers', exposed)
      return true
    },
    addPreflightHeaders(add) {
      add('access-control-allow-methods', methods)
      add('access-control-allow-headers', headers)
      add('access-control-max-age', String(maxAgeSeconds))
    },
  }
}

/**
 * CORS for browser apps on other origins, the same policy in both micros: answers preflights
 * itself (204) and adds the allow headers to every answer, refusals included, before the
 * handler runs. hono's own `cors()` sets them on `c.res` afterwards, which builds a `Headers`
 * object for every answer and takes the node adapter off its fast path (bench/README.md).
 * @example app.use(cors({ origins: ['https://app.example'] }))
 */
export function cors(options: CorsOptions): MiddlewareHandler {
  const policy = corsPolicy(options)
  return function applyCors(c, next) {
    const add = (name: string, value: string) => addResponseHeader(c, name, value)
    const allowed = policy.addAnswerHeaders(c.req.header('origin'), add)
    const isPreflight =
      c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined
    if (!isPreflight) return next()
    if (allowed) policy.addPreflightHeaders(add)
    return Promise.resolve(c.body(null, 204))
  }
}
