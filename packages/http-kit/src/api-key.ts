import type { Context, MiddlewareHandler } from 'hono'
import type { ApiRoute } from './api-route.js'
import { writeOriginCheck } from './cors.js'
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
}

/** What an app keeps in the context for its guarded routes. */
export type ApiKeyVariables = { writeGuard: WriteGuard }

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
 * @example app.use(acceptApiKeys(settings.apiKeys, { writeOrigins: settings.corsOrigins }))
 */
export function acceptApiKeys(
  keys: readonly string[],
  { writeOrigins = [] }: { writeOrigins?: readonly string[] } = {},
): MiddlewareHandler<{ Variables: ApiKeyVariables }> {
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
  const guard: WriteGuard = {
    keyed: keys.length > 0,
    accepted,
    foreign: (c) => isForeignPage(c, mayWrite),
  }
  return function putWriteGuard(c, next) {
    c.set('writeGuard', guard)
    return next()
  }
}

/**
 * The guard of a route that needs `x-apikey`: 401 `{"error":"Unauthorized"}` unless the value
 * is one of the keys given to `acceptApiKeys`; where no key is configured, 403 for a page on
 * another origin that may not write without one. Declare it in the route's config (see
 * `guarded`), ahead of the body's validators, so that nothing of a refused request is read.
 * Without `acceptApiKeys` in front it refuses everything: a wiring mistake never opens a door.
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

/** The OpenAPI security scheme of `x-apikey`, registered under this name by both micros. */
export const apiKeyScheme = {
  name: 'ApiKey',
  scheme: { type: 'apiKey', in: 'header', name: 'x-apikey' },
} as const

/**
 * A route config with the API-key guard declared: `requireApiKey` first among its middleware
 * and the `ApiKey` scheme in its OpenAPI `security` (unless the config states its own, such as
 * items' "only when a key is set"), so that the document and the guard cannot disagree.
 * @example export const sendMailRoute = apiRoute(guarded({ method: 'post', path: '/sendmail', ... }))
 */
export function guarded<const R extends ApiRoute>(
  route: R,
): R & { middleware: readonly MiddlewareHandler[]; security: readonly SecurityRequirement[] } {
  return {
    ...route,
    middleware: [requireApiKey, ...(route.middleware ?? [])],
    security: route.security ?? [{ [apiKeyScheme.name]: [] }],
  }
}

type SecurityRequirement = Record<string, string[]>
