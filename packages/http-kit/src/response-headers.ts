import type { Context } from 'hono'

/** The headers every response to this request carries (its id, nosniff, CORS), by name. */
export type ResponseHeadersVariables = { responseHeaders: Record<string, string> }

/** The responses made whole, with the request's headers in them, by `responseWithHeaders`. */
const whole = new WeakSet<Response>()

/**
 * The service's middleware puts the headers every response carries here, rather than on Hono's
 * context with `c.header`: that makes a `Headers` object for every request, which on the Workers
 * runtime cost a read of one item a sixth of its rate (README.md, "Written here where a library
 * has one"), where a response made with one record of all its headers makes none. They reach
 * the wire one of two ways, on purpose: `responseWithHeaders` (the routes' JSON bytes, every
 * read) or `completeResponse` (every other response), and no response takes both.
 */
export function addResponseHeader(c: Context, name: string, value: string): void {
  const headers = (c as Context<{ Variables: ResponseHeadersVariables }>).get('responseHeaders')
  if (headers) headers[name] = value
  else c.set('responseHeaders', { [name]: value })
}

/**
 * A response made with one record of all its headers: the request's (`addResponseHeader`) and
 * `own`, which win where both name one (none do: the request's are its id, nosniff and CORS).
 * One of the two ways headers reach the wire: the fast one. No `Headers` object is made here, and
 * `@hono/node-server` writes such a response's record to the socket as it is; patching it after
 * (`completeResponse`) would make one for every read.
 * @example return responseWithHeaders(c, bytes, 200, { 'content-type': 'application/json' })
 */
export function responseWithHeaders(
  c: Context,
  body: BodyInit | null,
  status: number,
  own: Readonly<Record<string, string>>,
): Response {
  const request = (c as Context<{ Variables: ResponseHeadersVariables }>).get('responseHeaders')
  const response = new Response(body, { status, headers: request ? { ...request, ...own } : own })
  whole.add(response)
  return response
}

/**
 * Once the app has answered: the request's headers put on a response made without them, where it
 * does not name them itself. The other of the two ways headers reach the wire, for what
 * `responseWithHeaders` cannot make: responses Hono makes (`c.json`, `c.body`, `c.html`, its
 * not-found and error handlers) and ones passed on as they came (a redirect, a fetched response,
 * whose headers cannot change: a copy takes them). Refusals, errors and pages are few beside
 * reads, so a `Headers` object there costs little. Run by the middleware that runs first, after
 * the others.
 */
export function completeResponse(c: Context): void {
  const request = (c as Context<{ Variables: ResponseHeadersVariables }>).get('responseHeaders')
  if (!request || whole.has(c.res)) return
  let response = c.res
  try {
    for (const [name, value] of Object.entries(request)) {
      if (!response.headers.has(name)) response.headers.set(name, value)
    }
  } catch {
    // Headers that cannot change (a response passed on as it came): a copy takes them.
    response = new Response(response.body, response)
    for (const [name, value] of Object.entries(request)) {
      if (!response.headers.has(name)) response.headers.set(name, value)
    }
    c.res = response
  }
}
