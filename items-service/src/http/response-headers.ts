import type { Context, MiddlewareHandler } from 'hono'

/** Headers every response of the request carries, kept as a plain object until the end. */
export type ResponseHeadersVariables = {
  responseHeaders: Record<string, string>
  responseHeadersApplied: boolean
}

type HeadersContext = Context<{ Variables: ResponseHeadersVariables }>

/**
 * Collects the headers that every response carries (`X-Content-Type-Options: nosniff`, and what
 * middleware add: request id, CORS) in a plain object instead of `c.header()`. The hot handlers
 * pass that object straight to their `Response` (see `takeResponseHeaders`), which lets the
 * node adapter write it without building a `Headers` object, a large share of a small answer's
 * cost. Any other answer gets the headers copied in after the handler has run.
 */
export function responseHeaders(): MiddlewareHandler<{ Variables: ResponseHeadersVariables }> {
  return async function collectResponseHeaders(c, next) {
    // A literal, not a copy of a shared object: V8 builds it from one template, as cheap as `{}`.
    c.set('responseHeaders', { 'x-content-type-options': 'nosniff' })
    await next()
    if (c.get('responseHeadersApplied')) return
    for (const [name, value] of Object.entries(c.get('responseHeaders'))) {
      c.res.headers.set(name, value)
    }
  }
}

/** Adds a header for whatever response the request ends with. */
export function addResponseHeader(c: Context, name: string, value: string): void {
  const headers = (c as HeadersContext).get('responseHeaders')
  if (headers) headers[name] = value
  else c.header(name, value)
}

/** The collected headers plus `extra`, for a handler that builds its own `Response`. */
export function takeResponseHeaders(
  c: Context,
  extra: Record<string, string>,
): Record<string, string> {
  const context = c as HeadersContext
  const headers = context.get('responseHeaders')
  if (!headers) return extra
  context.set('responseHeadersApplied', true)
  return Object.assign(headers, extra)
}
