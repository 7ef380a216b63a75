import type { Context } from 'hono'

/** Headers every answer of the request carries, kept as a plain object until the end. */
export type ResponseHeadersVariables = {
  responseHeaders: Record<string, string>
  responseHeadersApplied: boolean
}

type HeadersContext = Context<{ Variables: ResponseHeadersVariables }>

// The headers every answer carries (nosniff, request id, CORS) are collected in a plain object
// (started by `requestLog`) instead of through `c.header()`. The hot handlers hand that object
// straight to their `Response` (`takeResponseHeaders`), which lets the node adapter write it
// without building a `Headers` object, a large share of a small answer's cost. Any other answer
// gets them copied in once its handler has run (`applyResponseHeaders`).

/** Adds a header to whatever answer the request ends with. */
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

/** Copies the collected headers into the answer, unless its handler took them already. */
export function applyResponseHeaders(c: Context): void {
  const context = c as HeadersContext
  if (context.get('responseHeadersApplied')) return
  const headers = context.get('responseHeaders')
  if (!headers) return
  for (const name in headers) c.res.headers.set(name, headers[name] as string)
}
