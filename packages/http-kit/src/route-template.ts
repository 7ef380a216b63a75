import type { Context } from 'hono'

/**
 * The template of the route that answered `c` (`/items/:id`), read once the response is made,
 * as `@hono/prometheus` reads `routePath`: the route at the index Hono dispatched last. A
 * request no route of its method matched (a 404, a 405, a CORS preflight) was answered by the
 * middleware every path has (`app.use`, method `ALL`), and has no route: undefined, one value
 * for every unknown path, so that no raw path reaches a metric's labels.
 */
export function routeTemplateOf(c: Context): string | undefined {
  // The request's own getter, not `hono/route`'s helper of the same: that module brings Hono's
  // URL helpers into what a Worker's entry loads at every start (kept under 8 kB).
  const route = c.req.matchedRoutes[c.req.routeIndex]
  return route === undefined || route.method === 'ALL' ? undefined : route.path
}
