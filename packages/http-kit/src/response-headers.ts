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

/** An app's shared headers when it has none: one object, so that its records are kept too. */
const noSharedHeaders: Readonly<Record<string, string>> = {}

/**
 * Per representation's headers (a record a route keeps: its type, coding, `Vary`), the record of
 * a tagged response's headers in the order they are sent, for the app whose shared headers it
 * was made with; copied for each response, which sets its id and tag in it.
 */
const taggedRecords = new WeakMap<
  object,
  { shared: Readonly<Record<string, string>>; record: Readonly<Record<string, string>> }
>()

/**
 * A tagged read's response: `responseWithHeaders` with the `etag`, for `representation` headers
 * that are the same object from one read to the next (they are kept per representation). The
 * record of all the headers is made once per representation and copied for each read, where
 * joining the request's, the representation's and the tag for each was a read's largest part
 * of the work on its headers.
 * @example return responseWithTag(c, bytes, 200, json, item.etag)
 */
export function responseWithTag(
  c: Context,
  body: BodyInit | null,
  status: number,
  representation: Readonly<Record<string, string>>,
  etag: string,
): Response {
  const requestId = (c as HeadersContext).get('requestId')
  if (requestId === undefined) {
    return new Response(body, { status, headers: { ...representation, etag } })
  }
  const shared = (c as HeadersContext).get('sharedHeaders') ?? noSharedHeaders
  let made = taggedRecords.get(representation)
  if (made?.shared !== shared) {
    made = { shared, record: { 'x-request-id': '', ...shared, ...representation, etag: '' } }
    taggedRecords.set(representation, made)
  }
  const headers: Record<string, string> = { ...made.record }
  headers['x-request-id'] = requestId
  headers.etag = etag
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
