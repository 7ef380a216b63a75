import type { Context } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'
import { unreadBodyHeaders } from './unread-body.js'

/** A route as Hono lists it in `app.routes`; `ALL` is middleware, not a route of its own. */
type ListedRoute = { readonly method: string; readonly path: string }

/** The methods a route can be declared with, in the order an `Allow` header lists them. */
const routeMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/**
 * The methods each path of an app answers, read from its routes (`app.routes`) with Hono's own
 * router, so that a pattern means here what it means to the app. A path with a `GET` also
 * answers `HEAD` (Hono serves it from the `GET`), and every path that exists answers `OPTIONS`.
 * The routes are read at the first question: like Hono's own router, after every route is added.
 * Hono itself answers 404 to a method a path does not have, with no `Allow`.
 */
export function allowedMethods(routes: readonly ListedRoute[]): (path: string) => string[] {
  let built: TrieRouter<string> | undefined
  return function methodsOf(path) {
    if (built === undefined) {
      built = new TrieRouter<string>()
      for (const { method, path } of routes) {
        if (method !== 'ALL') built.add(method, path, method)
      }
    }
    const router = built
    const allowed: string[] = routeMethods.filter(
      (method) => router.match(method, path)[0].length > 0,
    )
    if (allowed.length === 0) return []
    if (allowed.includes('GET')) allowed.splice(1, 0, 'HEAD')
    return [...allowed, 'OPTIONS']
  }
}

/**
 * The response to a request no route serves: for a path that exists, 405 with `Allow` (a plain
 * `OPTIONS`, not a CORS preflight, gets 204 with `Allow`); for any other path, 404. The body
 * is JSON like every error, and a body on its way is left unread.
 * @example app.notFound(noRouteResponse(allowedMethods(app.routes)))
 */
export function noRouteResponse(methodsOf: (path: string) => string[]) {
  return function respondNoRoute(c: Context): Response {
    const { method, path } = c.req
    const allowed = methodsOf(path)
    if (allowed.length === 0) {
      return c.json({ error: `no route for ${method} ${path}` }, 404, unreadBodyHeaders(c))
    }
    const allow = allowed.join(', ')
    if (method === 'OPTIONS') return c.body(null, 204, { allow })
    const error = `${method} is not allowed on ${path}; it allows ${allow}`
    return c.json({ error }, 405, { allow, ...unreadBodyHeaders(c) })
  }
}
