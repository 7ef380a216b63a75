import type { Context, MiddlewareHandler } from 'hono'
import type { ApiRoute, ResponseEntry } from './api-route.js'
import { bearerTokenOf, tokenRefusal, type Users } from './bearer-token.js'
import { writeOriginCheck } from './cors.js'
import { errorEntry } from './error-entry.js'
import { isForeignPage } from './foreign-page.js'
import { unreadBodyHeaders } from './unread-body.js'

/** What a guarded route asks of a request: whether its key is right, or whether it may go keyless. */
export type WriteGuard = {
  /** Whether writes take a key at all (keys are configured). */
  keyed: boolean
  /** Whether `given` is one of the keys. */
  accepted: (given: string) => Promise<boolean>
  /** Whether the request comes from a page on another origin that may not write without a key. */
  foreign: (c: Context) => boolean
  /** The users whose tokens routes declared with `bearer` take; then no write goes without one. */
  users?: Users | undefined
}

/** Who a guarded route's request writes as: a user (the token's `sub`), or the key's holder. */
export type Writer = { subject?: string }

/** What an app keeps in the context for its guarded routes. */
export type ApiKeyVariables = { writeGuard: WriteGuard; writer: Writer }

const encoder = new TextEncoder()

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)))
}

/**
 * The keys the app's guarded routes accept in `x-apikey`. The rule when none are configured,
 * the same in both micros (DESIGN.md): the guard lets every request through but a write from a
 * page on another origin not in `writeOrigins` (a drive-by write from any website the user
 * visits), and a micro that must never be open (mail) does not start without a key. Keys are
 * compared as SHA-256 digests, byte by byte without stopping early, against every key, so the
 * time taken tells nothing of how close a guess was. Web Crypto only, so it runs on Workers too.
 * The service app puts it on every request (`writeGuard`), for the routes' guards to read.
 * @example const guard = writeGuardOf(settings.apiKeys, { writeOrigins: settings.corsOrigins })
 */
export function writeGuardOf(
  keys: readonly string[],
  {
    writeOrigins = [],
    users,
  }: { writeOrigins?: readonly string[]; users?: Users | undefined } = {},
): WriteGuard {
  const expected = Promise.all(keys.map(digest))
  const accepted = async (given: string) => {
    if (keys.length === 0) return true
    const candidate = await digest(given)
    let matches = 0
    for (const key of await expected) {
      let difference = 0
      for (let i = 0; i < key.length; i++)
        difference |= (key[i] as number) ^ (candidate[i] as number)
      matches |= difference === 0 ? 1 : 0
    }
    return matches === 1
  }
  const mayWrite = writeOriginCheck(writeOrigins)
  return {
    keyed: keys.length > 0,
    accepted,
    foreign: (c) => isForeignPage(c, mayWrite),
    users,
  }
}

/**
 * The guard of a route that needs `x-apikey`: 401 `{"error":"Unauthorized"}` unless the value
 * is one of the keys of the request's `writeGuard` (`writeGuardOf`); where no key is configured, 403 for a page on
 * another origin that may not write without one. Declare it in the route's config (see
 * `guarded`), ahead of the body's validators, so that nothing of a refused request is read.
 * Without a `writeGuard` on the request (an app that is not the service app) it refuses everything: a wiring mistake never opens a door.
 * Not hono's `bearerAuth`: it has no rule for a service without a key (open, but to pages of
 * other origins), and refuses with `WWW-Authenticate`, not the services' JSON errors.
 */
export const requireApiKey: MiddlewareHandler<{ Variables: ApiKeyVariables }> =
  async function checkApiKey(c, next) {
    const guard = c.get('writeGuard')
    if (guard && !guard.keyed && !guard.foreign(c)) return next()
    if (guard?.keyed && (await guard.accepted(c.req.header('x-apikey') ?? ''))) return next()
    if (guard && !guard.keyed) {
      const error = `a write from ${c.req.header('origin') ?? 'a page on another site'} needs that origin in CORS_ORIGINS`
      return c.json({ error }, 403, unreadBodyHeaders(c))
    }
    return c.json({ error: 'Unauthorized' }, 401, unreadBodyHeaders(c))
  }

/**
 * The guard of a route that takes a user's token beside the key (`guarded(route, { bearer:
 * true })`). Without users configured it is `requireApiKey`. With them, a request that sends
 * `x-apikey` is judged by the key alone (the operator's: it writes as nobody); any other needs
 * `Authorization: Bearer <JWT>` that `users.verify` accepts, whatever its origin, and the route
 * learns whose it is (`c.get('writer').subject`). Refusals: `tokenRefusal`.
 */
export const requireWriter: MiddlewareHandler<{ Variables: ApiKeyVariables }> =
  async function checkWriter(c, next) {
    const users = c.get('writeGuard')?.users
    if (!users) return requireApiKey(c, next)
    if (c.req.header('x-apikey') !== undefined) return requireApiKey(c, next)
    const token = bearerTokenOf(c)
    if (token === 'too-long' || token === 'absent') return tokenRefusal(c, users.realm, token)
    if (token === 'malformed') {
      return tokenRefusal(c, users.realm, { status: 401, reason: 'the token is not a JWT' })
    }
    const verdict = await users.verify(token)
    if (!verdict.ok) return tokenRefusal(c, users.realm, verdict)
    c.set('writer', { subject: verdict.subject })
    return next()
  }

/** The OpenAPI security scheme of a user's token, beside the key where a route takes both. */
export const bearerScheme = {
  name: 'BearerToken',
  scheme: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "A token of the service's OpenID issuer (ITEMS_JWT_ISSUER), for its audience",
  },
} as const

/** The OpenAPI security scheme of `x-apikey`, registered under this name by both micros. */
export const apiKeyScheme = {
  name: 'ApiKey',
  scheme: { type: 'apiKey', in: 'header', name: 'x-apikey' },
} as const

/**
 * A route config with the API-key guard declared: `requireApiKey` first among its middleware
 * and the `ApiKey` scheme in its OpenAPI `security` (unless the config states its own, such as
 * items' "only when a key is set"), so that the document and the guard cannot disagree. With
 * `bearer`, the guard is `requireWriter`, the `BearerToken` scheme stands beside the key in
 * `security`, and the route's 401 says `WWW-Authenticate` (the docs keep the schemes the
 * running service takes: `addDocsRoutes`' `keyed` and `users`).
 * @example export const sendMailRoute = apiRoute(guarded({ method: 'post', path: '/sendmail', ... }))
 */
export function guarded<const R extends ApiRoute>(
  route: R,
  { bearer = false }: { bearer?: boolean } = {},
): R & { middleware: readonly MiddlewareHandler[]; security: readonly SecurityRequirement[] } {
  const security = route.security ?? [{ [apiKeyScheme.name]: [] }]
  if (!bearer) {
    return { ...route, middleware: [requireApiKey, ...(route.middleware ?? [])], security }
  }
  const unauthorized = route.responses[401]
  return {
    ...route,
    middleware: [requireWriter, ...(route.middleware ?? [])],
    security: [security[0] ?? {}, { [bearerScheme.name]: [] }, ...security.slice(1)],
    responses: {
      ...route.responses,
      ...(unauthorized && { 401: withChallenge(unauthorized) }),
      431: route.responses[431] ?? tooLongAuthorization,
    },
  }
}

const tooLongAuthorization = errorEntry(
  'Authorization is longer than 8192 bytes: refused before anything reads it',
  'Authorization is longer than 8192 bytes',
)

/** A 401's entry with the `WWW-Authenticate` a refused token carries. */
function withChallenge(entry: ResponseEntry): ResponseEntry {
  const challenge = {
    description:
      'With an issuer set: `Bearer realm="…"` for a missing token, with `error="invalid_token"` and `error_description` for a bad one',
    schema: { type: 'string', example: 'Bearer realm="items-service", error="invalid_token"' },
  }
  return { ...entry, headers: { ...entry.headers, 'WWW-Authenticate': challenge } }
}

type SecurityRequirement = Record<string, string[]>
