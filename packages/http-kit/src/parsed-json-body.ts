import type { Context } from 'hono'

/** Each request's JSON body as `jsonObjectBody` parsed it, by the request Hono made of it. */
const parsedBodies = new WeakMap<object, unknown>()

/** Keeps the body `jsonObjectBody` parsed and checked, for the checks that read it next. */
export function keepParsedJsonBody(c: Context, value: unknown): void {
  parsedBodies.set(c.req, value)
}

/**
 * The request's JSON body: the value `jsonObjectBody` parsed, or, on a route without it, the
 * body parsed here. Hono's `c.req.json()` parses the cached text again at every call, and a
 * write's body is read by more than one check before its handler.
 */
export function parsedJsonBody(c: Context): Promise<unknown> {
  return parsedBodies.has(c.req) ? Promise.resolve(parsedBodies.get(c.req)) : c.req.json()
}
