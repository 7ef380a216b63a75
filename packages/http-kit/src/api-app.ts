import { type Context, type Env, Hono, type MiddlewareHandler } from 'hono'
import { type $ZodType, safeParse } from 'zod/v4/core'
import type { ApiRoute, RouteHandler } from './api-route.js'
import './english-messages.js'
import { describeIssues } from './errors.js'
import { parsedJsonBody } from './parsed-json-body.js'

type Target = 'param' | 'query' | 'header' | 'json'

/** What each checked part is called in a 400's `error`. */
const targetNames: Record<Target, string> = {
  param: 'path parameter',
  query: 'query parameter',
  header: 'header',
  json: 'request body',
}

/**
 * The parts of a request a check reads: the query's repeated names as arrays, as Hono's; the body
 * as `jsonObjectBody` parsed it, when it did.
 */
const partOf: Record<Target, (c: Context) => unknown> = {
  param: (c) => c.req.param(),
  query: (c) =>
    Object.fromEntries(
      Object.entries(c.req.queries()).map(([name, values]) => [
        name,
        values.length === 1 ? values[0] : values,
      ]),
    ),
  header: (c) => c.req.header(),
  json: parsedJsonBody,
}

/**
 * A check of one part of the request against its schema: what passes is what the handler's
 * `c.req.valid(target)` returns; what fails answers 400 `{"error":"invalid <part>","issues":[…]}`.
 */
function check(target: Target, schema: $ZodType): MiddlewareHandler {
  return async (c, next) => {
    let part: unknown
    try {
      part = await partOf[target](c)
    } catch {
      // Only a body is parsed here, and only on a route that did not check it first.
      return c.json({ error: 'request body is not valid JSON' }, 400)
    }
    const result = safeParse(schema, part)
    if (!result.success) {
      const issues = describeIssues(result.error.issues)
      return c.json({ error: `invalid ${targetNames[target]}`, issues }, 400)
    }
    c.req.addValidatedData(target, result.data as never)
    await next()
  }
}

/** A route's checks, in the order the request's parts are read: path, query, headers, body. */
function checksOf({ request = {} }: ApiRoute): MiddlewareHandler[] {
  const body = request.body?.content['application/json'].schema
  return [
    ...(request.params ? [check('param', request.params)] : []),
    ...(request.query ? [check('query', request.query)] : []),
    ...(request.headers ? [check('header', request.headers)] : []),
    ...(body ? [check('json', body)] : []),
  ]
}

/** `/items/{id}` as Hono's router takes it: `/items/:id`. */
const routerPath = (path: string) => path.replaceAll(/\{([^}]+)\}/g, ':$1')

/**
 * A Hono app that also knows its routes as `ApiRoute`s, for its OpenAPI document. `openapi()`
 * mounts a route: its middleware, then its checks, then its handler. `include()` takes in a
 * sub-app's routes and their declarations.
 * @example new ApiApp().openapi(getItemRoute, (c) => c.json(find(c.req.valid('param').id)))
 */
export class ApiApp<E extends Env = Env> extends Hono<E> {
  /** Every route mounted on this app and on the sub-apps it included, in order. */
  readonly apiRoutes: ApiRoute[] = []

  openapi<const R extends ApiRoute>(route: R, handler: RouteHandler<R, E>): this {
    this.apiRoutes.push(route)
    const handlers = [...(route.middleware ?? []), ...checksOf(route), handler]
    this.on([route.method.toUpperCase()], routerPath(route.path), ...(handlers as [typeof handler]))
    return this
  }

  include(app: ApiApp<E> | ApiApp): this {
    this.apiRoutes.push(...app.apiRoutes)
    this.route('/', app as Hono<E>)
    return this
  }
}
