export type CorsOptions = {
  /**
   * The origins whose pages may write without the key (CORS_ORIGINS): `['*']` for any, none by
   * default. Every origin may read.
   */
  writeOrigins: readonly string[]
  /** Whether writes take `x-apikey`: then a page on any origin may write with the key. */
  keyedWrites: boolean
  /** Whether writes take a user's token (`Authorization: Bearer`): then from a page on any origin. */
  tokenWrites?: boolean
  readMethods?: readonly string[]
  writeMethods?: readonly string[]
  allowHeaders?: readonly string[]
  exposeHeaders?: readonly string[]
  maxAgeSeconds?: number
}

/** Which CORS headers a response to a request from a given origin carries. */
export type CorsPolicy = {
  /** The headers every response carries: every origin may read it. One record, made once. */
  responseHeaders: Readonly<Record<string, string>>
  /**
   * The headers a preflight's answer carries on top: the read methods for every origin, the
   * writes too for an origin that may write without the key, or for a page that will send the
   * key (it asks for `x-apikey`) where writes take one, or a user's token (it asks for
   * `authorization`) where writes take those.
   */
  preflightHeaders(
    origin: string | undefined,
    requestedHeaders: string | undefined,
  ): Record<string, string>
}

/** Whether a request is a CORS preflight: `OPTIONS` with `Access-Control-Request-Method`. */
export function isPreflight(request: {
  method: string
  header: (name: string) => string | undefined
}): boolean {
  return (
    request.method === 'OPTIONS' && request.header('access-control-request-method') !== undefined
  )
}

/**
 * The CORS rules for browser apps: every origin may read answers (the items are public, and
 * what is not needs the key); a write from a page on another origin needs that origin listed, or
 * the key. The preflight is the browser's half of it; the API-key guard refuses the same writes
 * on the server (`requireApiKey`), whatever a browser did. The service app applies it to every
 * response, refusals included, and answers preflights with it (204). The kit keeps its own for
 * speed: hono's `cors()` (4.13, `allowMethods` a function of the origin, which holds this
 * policy) sets its headers on `c.res` before the handler runs, so every read makes a `Headers`
 * object and has them copied into its response: under half this one's rate for one item on Node
 * (README.md, "Written here where a library has one").
 */
export function corsPolicy({
  writeOrigins,
  keyedWrites,
  tokenWrites = false,
  readMethods = ['GET', 'HEAD', 'OPTIONS'],
  writeMethods = ['POST', 'PUT', 'DELETE'],
  allowHeaders = [
    'content-type',
    'idempotency-key',
    'if-match',
    'if-none-match',
    // A follower of the change feed resumes with it; it is not a safelisted header.
    'last-event-id',
    'x-apikey',
    'x-request-id',
  ],
  exposeHeaders = [
    'etag',
    'idempotent-replayed',
    'link',
    'location',
    // Whether a mail's status can move (the mail-service's `GET /maillog/{id}`).
    'mail-events',
    'retry-after',
    'x-request-id',
  ],
  maxAgeSeconds = 600,
}: CorsOptions): CorsPolicy {
  const mayWrite = writeOriginCheck(writeOrigins)
  const reads = readMethods.join(', ')
  const all = [...readMethods.slice(0, 2), ...writeMethods, ...readMethods.slice(2)].join(', ')
  // A signed-in user's token, where writes take one: a credential, but not a cookie, so no
  // `allow-credentials` is needed.
  const headers = (tokenWrites ? ['authorization', ...allowHeaders] : allowHeaders).join(', ')
  const responseHeaders = {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': exposeHeaders.join(', '),
  }
  return {
    responseHeaders,
    preflightHeaders(origin, requestedHeaders) {
      const sendsKey = keyedWrites && asksForKey.test(requestedHeaders ?? '')
      const sendsToken = tokenWrites && asksForToken.test(requestedHeaders ?? '')
      return {
        'access-control-allow-methods': mayWrite(origin) || sendsKey || sendsToken ? all : reads,
        'access-control-allow-headers': headers,
        'access-control-max-age': String(maxAgeSeconds),
        // The methods answered depend on these; a cache must not give one origin's to another.
        vary: 'Origin, Access-Control-Request-Headers',
      }
    },
  }
}

const asksForKey = /(?:^|,)\s*x-apikey\s*(?:,|$)/i
const asksForToken = /(?:^|,)\s*authorization\s*(?:,|$)/i

/** Whether a page of `origin` may write without the key: listed, or every origin is (`*`). */
export function writeOriginCheck(
  writeOrigins: readonly string[],
): (origin: string | undefined) => boolean {
  const any = writeOrigins.includes('*')
  const listed = new Set(writeOrigins)
  return (origin) => any || (origin !== undefined && listed.has(origin))
}
