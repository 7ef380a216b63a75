import { OpenAPIHono } from '@hono/zod-openapi'
import { PatternRouter } from 'hono/router/pattern-router'
import { allowedMethods, noRouteAnswer } from './allowed-methods.js'
import { type ApiKeyVariables, acceptApiKeys, apiKeyScheme } from './api-key.js'
import { bodyTimeout } from './body-read-first.js'
import { cors } from './cors.js'
import { errorHandler, type KnownError, validationHook } from './errors.js'
import type { BodyTimeoutVariables } from './json-body.js'
import { type RequestLogVariables, requestLog } from './request-log.js'

export type ServiceEnv = {
  Variables: RequestLogVariables & ApiKeyVariables & BodyTimeoutVariables
}

export type ServiceAppOptions = {
  /** Takes each request's line, newline included. */
  log: (line: string) => void
  /** Takes the lines of unexpected errors, newline included; `log` when absent. */
  logError?: (line: string) => void
  /** The origins whose pages may write without the key (CORS_ORIGINS); every origin may read. */
  corsOrigins: readonly string[]
  /** The `x-apikey` values guarded routes accept; none: the guard is open (DESIGN.md). */
  apiKeys: readonly string[]
  /** The errors the service answers with a status of their own (its stores' among them). */
  knownErrors?: readonly KnownError[]
  /**
   * How long a request's body may take to arrive (BODY_TIMEOUT_MS): 408 after it. Infinity: no
   * deadline, for an app whose requests come with their bodies read already.
   */
  bodyTimeoutMs?: number
}

/**
 * The Hono app every route of both micros is added to, with what each of them has in the same
 * form: request ids and log lines, nosniff, CORS, the API-key scheme for guarded routes, 400s
 * from validation, JSON 404s (405 with `Allow` for a path that has other methods), and errors answered without internals.
 * @example const app = createServiceApp({ log, corsOrigins: ['*'], apiKeys: [key] })
 */
export function createServiceApp({
  log,
  logError = log,
  corsOrigins,
  apiKeys,
  knownErrors = [],
  bodyTimeoutMs = bodyTimeout.defaultMs,
}: ServiceAppOptions): OpenAPIHono<ServiceEnv> {
  // A service has a few dozen routes: one regular expression per route, tried in order, finds
  // them faster than the default's tree (`RegExpRouter` cannot hold `/items/events` beside
  // `/items/:id`, so the default falls back to the tree), and is built when added.
  const app = new OpenAPIHono<ServiceEnv>({
    defaultHook: validationHook,
    router: new PatternRouter(),
  })
  const keyedWrites = apiKeys.length > 0
  app.use(
    ...requestLog({ write: log }),
    cors({ writeOrigins: corsOrigins, keyedWrites }),
    acceptApiKeys(apiKeys, { writeOrigins: corsOrigins }),
    (c, next) => {
      c.set('bodyTimeoutMs', bodyTimeoutMs)
      return next()
    },
  )
  app.openAPIRegistry.registerComponent('securitySchemes', apiKeyScheme.name, apiKeyScheme.scheme)
  app.notFound(noRouteAnswer(allowedMethods(app.routes)))
  app.onError(errorHandler({ log: logError, known: knownErrors }))
  return app
}
