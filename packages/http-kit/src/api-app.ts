import { type Context, type Env, type Handler, Hono, type MiddlewareHandler } from 'hono'
import type { HonoOptions } from 'hono/hono-base'
import { type $ZodType, safeParse } from 'zod/v4/core'
import type { ApiRoute, RouteHandler } from './api-route.js'
import { undecodablePath } from './decodable-path.js'
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
const partOf: Record<Exclude<Target, 'json'>, (c: Context) => unknown> = {
  param: (c) => c.req.param(),
  query: (c) =>
    Object.fromEntries(
      Object.entries(c.req.queries()).map(([name, values]) => [
        name,
        values.length === 1 ? values[0] : values,
      ]),
    ),
  header: (c) => c.req.header(),
}

/** What a check answers: a 400 when the part fails, nothing when it passes (its value kept). */
type Check = (c: Context) => Response | undefined

/**
 * A check of one part of the request against its schema: what passes is what the handler's
 * `c.req.valid(target)` returns; what fails answers 400 `{"error":"invalid <part>","issues":[…]}`.
 */
function check(target: Exclude<Target, 'json'>, schema: $ZodType): Check {
  return (c) => checked(c, target, schema, partOf[target](c))
}

function checked(c: Context, target: Target, schema: $ZodType, part: unknown) {
  const result = safeParse(schema, part)
  if (!result.success) return refused(c, target, result.error.issues)
  c.req.addValidatedData(target, result.data as never)
  return undefined
}

/** The 400 of a part that failed its check. */
function refused(c: Context, target: Target, issues: Parameters<typeof describeIssues>[0]) {
  return c.json({ error: `invalid ${targetNames[target]}`, issues: describeIssues(issues) }, 400)
}

/** A parameter of a path in OpenAPI's form, `{id}`, its name captured. */
const pathParameter = /\{([^}]+)\}/g

/** How many values that passed a route with one path parameter keeps, before it starts over. */
const rememberedParams = 1024

/**
 * The check of a route's path parameters. A route with one parameter keeps the values that
 * passed, as checked: polling clients read the same items again and again, and each value is
 * then checked by its schema once, not at every read. What fails is checked, and refused,
 * every time.
 */
function checkParams(path: string, schema: $ZodType): Check {
  const names = Array.from(path.matchAll(pathParameter), ([, name]) => name as string)
  const [name] = names
  if (name === undefined || names.length > 1) return check('param', schema)
  const passed = new Map<string, Readonly<Record<string, unknown>>>()
  return (c) => {
    const value = c.req.param(name) as string
    const known = passed.get(value)
    if (known !== undefined) {
      c.req.addValidatedData('param', known)
      return undefined
    }
    const result = safeParse(schema, { [name]: value })
    if (!result.success) return refused(c, 'param', result.error.issues)
    const data = Object.freeze(result.data as Record<string, unknown>)
    if (passed.size >= rememberedParams) passed.clear()
    passed.set(value, data)
    c.req.addValidatedData('param', data)
    return undefined
  }
}

/** The body's check: the body is read first, so it is the one check that waits. */
function checkBody(schema: $ZodType): (c: Context) => Promise<Response | undefined> {
  return (c) =>
    parsedJsonBody(c).then(
      (body) => checked(c, 'json', schema, body),
      // Only a body is parsed here, and only on a route that did not check it first.
      () => c.json({ error: 'request body is not valid JSON' }, 400),
    )
}

/** A route's handler as the app runs it: Hono's, its response (or a promise of one) untyped. */
type AnyHandler = Handler

/**
 * A route's checks, in the order the request's parts are read (a path that must decode, its
 * parameters, query, headers, body),
 * then its handler, as one handler: the path, query and headers are checked as the request
 * comes, and a route without a body answers without waiting on anything it need not.
 */
function checkedHandler({ path, request = {} }: ApiRoute, handler: AnyHandler): AnyHandler {
  const body = request.body?.content['application/json'].schema
  const checks = [
    // A parameter Hono could not decode is refused before anything reads it.
    ...(path.includes('{') ? [undecodablePath] : []),
    ...(request.params ? [checkParams(path, request.params)] : []),
    ...(request.query ? [check('query', request.query)] : []),
    ...(request.headers ? [check('header', request.headers)] : []),
  ]
  const bodyCheck = body && checkBody(body)
  return (c, next) => {
    for (const each of checks) {
      const refused = each(c)
      if (refused) return refused
    }
    if (!bodyCheck) return handler(c, next)
    return bodyCheck(c).then((refused) => refused ?? handler(c, next))
  }
}

/**
 * A route's middleware in order, then `last`, as one handler: what a middleware answers is the
 * route's answer, or else what came after it. Hono's own composition, for one route.
 */
function withMiddleware(middleware: readonly MiddlewareHandler[], last: AnyHandler): AnyHandler {
  if (middleware.length === 0) return last
  return (c, next) => {
    const step = async (index: number): Promise<Response> => {
      const current = middleware[index]
      if (current === undefined) return last(c, next)
      let after: Response | undefined
      const answered = await current(c, async () => {
        after = await step(index + 1)
      })
      const response = answered ?? after
      // A middleware that neither answered nor called `next` left the route without an answer.
      if (response === undefined) throw new Error(`route middleware ${index} gave no response`)
      return response
    }
    return step(0)
  }
}

/**
 * What an app does around each route's handler, in one place (the service's request id, headers
 * and log line): applied by `ApiApp` to every route it mounts or includes.
 */
export type AroundRoute = (handler: AnyHandler) => AnyHandler

/** `/items/{id}` as Hono's router takes it: `/items/:id`. */
const routerPath = (path: string) => path.replaceAll(pathParameter, ':$1')

/**
 * A Hono app that also knows its routes as `ApiRoute`s, for its OpenAPI document. `openapi()`
 * mounts a route as one handler: its middleware, then its checks, then its handler, inside what
 * the app does around each route (`around`, given by the service app). One handler a route, and
 * no middleware of the app's, is what lets Hono call it straight away and take a response that
 * is ready without a promise. `include()` mounts a sub-app's routes on this app the same way.
 * @example new ApiApp().openapi(getItemRoute, (c) => c.json(find(c.req.valid('param').id)))
 */
export class ApiApp<E extends Env = Env> extends Hono<E> {
  /** Every route mounted on this app and on the sub-apps it included, in order. */
  readonly apiRoutes: ApiRoute[] = []
  /** Each route with its handler, as given, for an app that includes this one. */
  readonly #mounted: [ApiRoute, AnyHandler][] = []
  readonly #around: AroundRoute | undefined

  constructor(options: HonoOptions<E> & { around?: AroundRoute } = {}) {
    const { around, ...hono } = options
    super(hono)
    this.#around = around
  }

  openapi<const R extends ApiRoute>(route: R, handler: RouteHandler<R, E>): this {
    return this.#mount(route, handler as AnyHandler)
  }

  include(app: ApiApp<E> | ApiApp): this {
    if (app.routes.length !== app.#mounted.length) {
      throw new Error(
        'include() takes the routes of an ApiApp declared with openapi(), and only those',
      )
    }
    for (const [route, handler] of app.#mounted) this.#mount(route, handler)
    return this
  }

  #mount(route: ApiRoute, handler: AnyHandler): this {
    this.apiRoutes.push(route)
    this.#mounted.push([route, handler])
    const whole = withMiddleware(route.middleware ?? [], checkedHandler(route, handler))
    const served = this.#around ? this.#around(whole) : whole
    this.on([route.method.toUpperCase()], routerPath(route.path), served)
    return this
  }
}
