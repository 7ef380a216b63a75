import type { Hono } from 'hono'
import { allowedMethods, noRouteResponse } from './allowed-methods.js'
import { type ApiKeyVariables, acceptApiKeys } from './api-key.js'
import type { Users } from './bearer-token.js'
import { bodyTimeout } from './body-read-first.js'
import { cors } from './cors.js'
import { type ErrorRecord, errorHandler, type KnownError } from './errors.js'
import type { BodyTimeoutVariables } from './json-body.js'
import { type RequestLogVariables, type RequestRecord, requestLog } from './request-log.js'
import type { ResponseHeadersVariables } from './response-headers.js'

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
   * JSON log (`request-log.ts`).
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

/**
 * What every app of both micros has, in the same form, put on `app` before its routes: request
 * ids and log lines, nosniff, CORS, the API-key guard, JSON 404s (405 with `Allow` for a path
 * that has other methods), and errors answered without internals.
 */
export function withServiceMiddleware<App extends Hono<ServiceEnv>>(
  app: App,
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
): App {
  const keyedWrites = apiKeys.length > 0
  app.use(
    ...requestLog({ write: log, onResponse }),
    cors({ writeOrigins: corsOrigins, keyedWrites, tokenWrites: users !== undefined }),
    acceptApiKeys(apiKeys, { writeOrigins: corsOrigins, users }),
    (c, next) => {
      c.set('bodyTimeoutMs', bodyTimeoutMs)
      return next()
    },
  )
  app.notFound(noRouteResponse(allowedMethods(app.routes)))
  app.onError(errorHandler({ log: logError, onError, known: knownErrors }))
  return app
}
