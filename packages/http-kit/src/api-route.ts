import type { Env, Handler, MiddlewareHandler } from 'hono'
import type { $ZodType, output } from 'zod/v4/core'

// A route as both micros declare it: its path, its checks and its responses in one object that is
// at once what the app mounts (`ApiApp.openapi`) and what its OpenAPI document says
// (`openApiDocument`). The schemas are zod's core schemas, as `zod/mini` makes them: a Worker
// that loads the routes evaluates no part of zod's method-chaining API.

export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch'

/**
 * A media type's entry: its schema (a zod schema, or JSON Schema written out for what no check
 * reads, such as a stream), and an example the docs page shows.
 */
export type MediaEntry = { schema?: $ZodType | JsonSchema; example?: unknown }

/** JSON Schema as the document says it, for a body that no check reads. */
export type JsonSchema = { type: string; [keyword: string]: unknown }

/** Whether a media type's schema is zod's, or JSON Schema written out. */
export const isZodSchema = (schema: $ZodType | JsonSchema): schema is $ZodType => '_zod' in schema

/** What a response of one status is: its description, headers and bodies, by media type. */
export type ResponseEntry = {
  description: string
  /** OpenAPI header objects, written out (JSON Schema in `schema`). */
  headers?: Record<string, object>
  content?: Record<string, MediaEntry>
}

export type ApiRoute = {
  method: HttpMethod
  /** In OpenAPI's form: `/items/{id}`. */
  path: string
  operationId: string
  tags?: readonly string[]
  summary?: string
  description?: string
  /** OpenAPI security requirements; `[]` when the route needs nothing. */
  security?: readonly Record<string, string[]>[]
  /** Run before the checks of `request`, in order. */
  middleware?: readonly MiddlewareHandler[]
  /** Parameters the checks do not cover, as OpenAPI parameter objects (headers, say). */
  parameters?: readonly object[]
  request?: {
    /** An object schema of the path's parameters. */
    params?: $ZodType
    /** An object schema of the query's parameters: a name given more than once, an array. */
    query?: $ZodType
    /** An object schema of the headers the route reads, their names in lower case. */
    headers?: $ZodType
    body?: {
      description?: string
      required?: boolean
      content: { 'application/json': { schema: $ZodType; example?: unknown } }
    }
  }
  responses: Record<number, ResponseEntry>
}

/**
 * A route, its type kept exact so that its handler knows what the checks let through.
 * @example export const getItemRoute = apiRoute({ method: 'get', path: '/items/{id}', ... })
 */
export function apiRoute<const R extends ApiRoute>(route: R): R {
  return route
}

type Schema<R, Key extends string> = R extends { request: { [K in Key]: infer S extends $ZodType } }
  ? S
  : never
type BodySchema<R> = R extends {
  request: { body: { content: { 'application/json': { schema: infer S extends $ZodType } } } }
}
  ? S
  : never

/** What `c.req.valid(...)` hands a route's handler: each checked part, as its schema gives it. */
export type RouteInput<R> = {
  out: ([Schema<R, 'params'>] extends [never] ? Empty : { param: output<Schema<R, 'params'>> }) &
    ([Schema<R, 'query'>] extends [never] ? Empty : { query: output<Schema<R, 'query'>> }) &
    ([Schema<R, 'headers'>] extends [never] ? Empty : { header: output<Schema<R, 'headers'>> }) &
    ([BodySchema<R>] extends [never] ? Empty : { json: output<BodySchema<R>> })
}
type Empty = Record<never, never>

/** The handler of a route: it runs once the route's middleware and checks have passed. */
export type RouteHandler<R, E extends Env> = Handler<E, string, RouteInput<R>>

/**
 * The schemas of a route's JSON responses of the given statuses (of each route, for a union), for
 * the published clients' type checks.
 */
export type ResponseSchema<R, Status> = R extends { responses: infer Answers }
  ? Status extends keyof Answers
    ? Answers[Status] extends { content: { 'application/json': { schema: infer S } } }
      ? S
      : never
    : never
  : never
