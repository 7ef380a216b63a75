import type { RouteConfig } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { unreadBodyHeaders } from './unread-body.js'

/** What an app keeps in the context for its guarded routes: a check of one `x-apikey` value. */
export type ApiKeyVariables = { apiKeyAccepted: (given: string) => Promise<boolean> }

const encoder = new TextEncoder()

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)))
}

/**
 * The keys the app's guarded routes accept in `x-apikey`. The rule when none are configured,
 * the same in both micros (DESIGN.md): the guard lets every request through, and a micro that
 * must never be open (mail) does not start without a key. Keys are compared as SHA-256 digests,
 * byte by byte without stopping early, against every key, so the time taken tells nothing of
 * how close a guess was. Web Crypto only, so it runs on Workers too.
 * @example app.use(acceptApiKeys(settings.apiKeys))
 */
export function acceptApiKeys(
  keys: readonly string[],
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
  return function putApiKeyCheck(c, next) {
    c.set('apiKeyAccepted', accepted)
    return next()
  }
}

/**
 * The guard of a route that needs `x-apikey`: 401 `{"error":"Unauthorized"}` unless the value
 * is one of the keys given to `acceptApiKeys`. Declare it in the route's config (see
 * `guarded`), ahead of the body's validators, so that nothing of a refused request is read.
 * Without `acceptApiKeys` in front it refuses everything: a wiring mistake never opens a door.
 */
export const requireApiKey: MiddlewareHandler<{ Variables: ApiKeyVariables }> =
  async function checkApiKey(c, next) {
    const accepted = c.get('apiKeyAccepted')
    if (accepted && (await accepted(c.req.header('x-apikey') ?? ''))) return next()
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
 * @example export const sendMailRoute = createRoute(guarded({ method: 'post', path: '/sendmail', ... }))
 */
export function guarded<const R extends RouteConfig>(
  route: R,
): R & { middleware: MiddlewareHandler[]; security: SecurityRequirement[] } {
  const rest = route.middleware === undefined ? [] : [route.middleware].flat()
  return {
    ...route,
    middleware: [requireApiKey as MiddlewareHandler, ...rest],
    security: route.security ?? [{ [apiKeyScheme.name]: [] }],
  }
}

type SecurityRequirement = Record<string, string[]>
