import type { Context } from 'hono'

/**
 * What the service app keeps per request for the headers every response carries: the request's
 * id, and the headers that are the same for every response of the app (nosniff, CORS), one
 * record made once.
 */
export type ResponseHeadersVariables = {
  requestId: string
  sharedHeaders: Readonly<Record<string, string>>
}

type HeadersContext = Context<{ Variables: Partial<ResponseHeadersVariables> }>

/**
 * Marks the responses made whole, with the request's headers in them, by `responseWithHeaders`:
 * a property of the response rather than a `WeakSet` entry, which cost every read an insertion
 * and the garbage collector an entry to clear.
 */
const madeWhole = Symbol('response made whole')
type Marked = Response & { [madeWhole]?: true }

/** The headers every response to this request carries, by name; none outside the service app. */
function requestHeaders(c: Context): Record<string, string> | undefined {
  const requestId = (c as HeadersContext).get('requestId')
  const sharedHeaders = (c as HeadersContext).get('sharedHeaders')
  if (requestId === undefined) return undefined
  return { 'x-request-id': requestId, ...sharedHeaders }
}

/**
 * A response made with one record of all its headers: the request's (its id, nosniff, CORS) and
 * `own`, which win where both name one (none do). One of the two ways headers reach the wire:
 * the fast one. No `Headers` object is made here, and `@hono/node-server` writes such a
 * response's record to the socket as it is; patching it after (`completeResponse`) would make
 * one for every read, which on the Workers runtime cost a read of one item a sixth of its rate
 * (README.md, "Written here where a library has one").
 * @example return responseWithHeaders(c, bytes, 200, { 'content-type': 'application/json' })
 */
export function responseWithHeaders(
  c: Context,
  body: BodyInit | null,
  status: number,
  own: Readonly<Record<string, string>>,
): Response {
  const requestId = (c as HeadersContext).get('requestId')
  const sharedHeaders = (c as HeadersContext).get('sharedHeaders')
  const headers =
    requestId === undefined ? own : { 'x-request-id': requestId, ...sharedHeaders, ...own }
  const response: Marked = new Response(body, { status, headers })
  response[madeWhole] = true
  return response
}

/**
 * `response` with the request's headers, where it does not name them itself. The other of the
 * two ways headers reach the wire, for what `responseWithHeaders` cannot make: responses Hono
 * makes (`c.json`, `c.body`, `c.html`) and ones passed on as they came (a redirect, a fetched
 * response, whose headers cannot change: a copy takes them). Refusals, errors and pages are few
 * beside reads, so a `Headers` object there costs little. Run by the service app once a
 * response is made.
 */
export function completeResponse(c: Context, response: Response): Response {
  const request = (response as Marked)[madeWhole] ? undefined : requestHeaders(c)
  if (request === undefined) return response
  try {
    addMissing(response.headers, request)
    return response
  } catch {
    // Headers that cannot change (a response passed on as it came): a copy takes them.
    const copy = new Response(response.body, response)
    addMissing(copy.headers, request)
    return copy
  }
}

function addMissing(headers: Headers, added: Record<string, string>) {
  for (const [name, value] of Object.entries(added)) {
    if (!headers.has(name)) headers.set(name, value)
  }
}
