import type { Context, Handler, MiddlewareHandler } from 'hono'
import { allowedMethods, noRouteResponse } from './allowed-methods.js'
import type { AroundRoute } from './api-app.js'
import { type ApiKeyVariables, writeGuardOf } from './api-key.js'
import type { Users } from './bearer-token.js'
import { bodyTimeout } from './body-read-first.js'
import { corsPolicy, isPreflight } from './cors.js'
import { type ErrorRecord, errorHandler, type KnownError } from './errors.js'
import type { BodyTimeoutVariables } from './json-body.js'
import {
  type RequestLogVariables,
  type RequestRecord,
  requestIdFor,
  requestLine,
} from './request-log.js'
import { completeResponse, type ResponseHeadersVariables } from './response-headers.js'
import { routeTemplateOf } from './route-template.js'

export type ServiceEnv = {
  Variables: RequestLogVariables & ResponseHeadersVariables & ApiKeyVariables & BodyTimeoutVariables
}

export type ServiceAppOptions = {
  /** Takes each request's line, newline included; null: none (`onResponse` logs them as JSON). */
  log: ((line: string) => void) | null
  /** Takes the lines of unexpected errors, newline included; `log` (or stderr) when absent. */
  logError?: (line: string) => void
  /**
   * Sees each finished request's record where its line is written, synchronously: metrics, a
   * JSON log (`request-log.ts`). It must not throw or wait.
   */
  onResponse?: ((record: RequestRecord) => void) | undefined
  /** Takes unexpected errors as records instead of `logError`'s lines (a JSON log). */
  onError?: ((record: ErrorRecord) => void) | undefined
  /** The origins whose pages may write without the key (CORS_ORIGINS); every origin may read. */
  corsOrigins: readonly string[]
  /** The `x-apikey` values guarded routes accept; none: the guard is open (DESIGN.md). */
  apiKeys: readonly string[]
  /**
   * The users whose tokens the routes declared with `bearer` take (an OpenID issuer is set):
   * then those routes want a token or the key from every request, whatever CORS_ORIGINS says.
   */
  users?: Users | undefined
  /** The errors the service answers with a status of their own (its stores' among them). */
  knownErrors?: readonly KnownError[]
  /**
   * How long a request's body may take to arrive (BODY_TIMEOUT_MS): 408 after it. Infinity: no
   * deadline, for an app whose requests come with their bodies read already.
   */
  bodyTimeoutMs?: number
}

/** The service's work around every request, as each kind of app applies it. */
export type ServicePipeline = {
  /** Around each route's handler (`ApiApp`'s `around`): the fast way, no middleware. */
  around: AroundRoute
  /** The same as the first middleware, for a plain Hono app whose routes are few and rare. */
  middleware: MiddlewareHandler
  /** Hono's `notFound`: a preflight's 204, else 405 with `Allow` or 404, with the same promises. */
  notFound: (c: Context) => Response | Promise<Response>
  /** Hono's `onError`, for what fails outside a route: the same promises. */
  onError: (error: Error, c: Context) => Response | Promise<Response>
}

/**
 * What every request to an app of both micros gets, in one place: a request id (the caller's
 * `x-request-id` when sane, otherwise `requestIdFor`'s), echoed in the response;
 * `X-Content-Type-Options: nosniff`, so that no browser takes a JSON response that echoes input
 * for a script or a page; the CORS headers (`corsPolicy`) and the preflight's answer; the
 * API-key guard's rule (`writeGuardOf`) for the guarded routes; the body's deadline; errors
 * answered without internals (`errorHandler`); and one line per request: time, id, method, path,
 * status, ms. Only the path is logged, never headers or bodies, so no key reaches the log.
 *
 * Not five middleware: each middleware makes a response a promise, and Hono composes them for
 * every request. Here the work is done around the route's handler, in the same turn, and a
 * response ready without a promise stays so (one item read from memory is answered without
 * one). Not hono's `requestId`, `logger` or `secureHeaders` either: they set their headers with
 * `c.header` (a `Headers` object for every request) or on the finished answer, which takes the
 * node adapter off its fast path, and `logger` prints no id.
 * @example const pipeline = servicePipeline(options, () => app.routes)
 */
export function servicePipeline(
  {
    log,
    logError = log ?? ((line) => console.error(line.trimEnd())),
    onResponse,
    onError,
    corsOrigins,
    apiKeys,
    users,
    knownErrors = [],
    bodyTimeoutMs = bodyTimeout.defaultMs,
  }: ServiceAppOptions,
  /** The app's routes, read when a request first matches none (every route is added by then). */
  routes: () => readonly { method: string; path: string }[],
): ServicePipeline {
  const cors = corsPolicy({
    writeOrigins: corsOrigins,
    keyedWrites: apiKeys.length > 0,
    tokenWrites: users !== undefined,
  })
  const sharedHeaders = { 'x-content-type-options': 'nosniff', ...cors.responseHeaders }
  const guard = writeGuardOf(apiKeys, { writeOrigins: corsOrigins, users })
  const respondToError = errorHandler({ log: logError, onError, known: knownErrors })
  let respondNoRoute: ((c: Context) => Response) | undefined

  /**
   * The one point where each request is finished: its response complete, its line written, its
   * record seen by `onResponse` (the route's template from `routeTemplateOf`: none for a request
   * no route serves).
   */
  const finished = (c: Context, response: Response, startedAt: number): Response => {
    const sent = completeResponse(c, response)
    const requestId = c.get('requestId') as string
    if (log) log(requestLine(requestId, c.req.method, c.req.path, sent.status, startedAt))
    if (onResponse) {
      onResponse({
        requestId,
        method: c.req.method,
        path: c.req.path,
        route: routeTemplateOf(c),
        status: sent.status,
        durationMs: performance.now() - startedAt,
        user: c.get('writer')?.subject,
        keyDigest: c.get('keyDigest'),
      })
    }
    return sent
  }

  /** The answer to what failed while a request was served, finished as every answer is. */
  const failed = (c: Context, error: unknown, startedAt: number) =>
    finished(
      c,
      respondToError(error instanceof Error ? error : new Error(String(error)), c),
      startedAt,
    )

  /** `answer`'s response, with the request's id, headers and line; errors answered too. */
  const served = (c: Context, answer: () => Response | Promise<Response>) => {
    if (c.get('requestId') !== undefined) return answer()
    const startedAt = performance.now()
    c.set('requestId', requestIdFor(c.req.header('x-request-id')))
    c.set('sharedHeaders', sharedHeaders)
    c.set('writeGuard', guard)
    c.set('bodyTimeoutMs', bodyTimeoutMs)
    let response: Response | Promise<Response>
    try {
      response = answer()
    } catch (error) {
      return failed(c, error, startedAt)
    }
    if (response instanceof Promise) {
      return response.then(
        (done) => finished(c, done, startedAt),
        (error: unknown) => failed(c, error, startedAt),
      )
    }
    return finished(c, response, startedAt)
  }

  const notFound = (c: Context) =>
    served(c, () => {
      if (isPreflight(c.req)) {
        const headers = cors.preflightHeaders(
          c.req.header('origin'),
          c.req.header('access-control-request-headers'),
        )
        return c.body(null, 204, headers)
      }
      respondNoRoute ??= noRouteResponse(allowedMethods(routes()))
      return respondNoRoute(c)
    })

  return {
    around: (handler: Handler) => (c, next) => served(c, () => handler(c, next)),
    middleware: async (c, next) => {
      const sent = await served(c, async () => {
        await next()
        return c.res
      })
      // A copy, where the answer's headers could not change.
      if (sent !== c.res) c.res = sent
    },
    notFound,
    onError: (error, c) => served(c, () => respondToError(error, c)),
  }
}
