/** What an HTML page may do besides loading its own files. */
export type PagePolicy = {
  /** URLs the page's script calls besides its own origin: their origins are allowed. */
  connectTo?: readonly string[]
  /** The exact content of each inline `<style>` of the page, allowed by its hash. */
  inlineStyles?: readonly string[]
}

export type HtmlHeaders = Record<string, string>

/**
 * The policy source that allows an inline block with exactly this content. Web Crypto only, so
 * it runs on Workers too.
 * @example await inlineHash('p{color:red}') // "'sha256-…'"
 */
export async function inlineHash(content: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(content))
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`
}

// What a policy source may be: a host name, or an IPv6 address in brackets, and a port. The URL
// parser lets `;` and `,` into a host, and those would start a directive of their own.
const plainOrigin = /^https?:\/\/(?:[a-z\d.-]+|\[[\da-f:.]+\])(?::\d+)?$/

/**
 * The origin of an absolute http(s) URL, as a policy source; none for a path on the page's
 * own origin, or for a host that is not a plain name or address.
 */
export function originOf(url: string): string[] {
  if (!/^https?:\/\//i.test(url)) return []
  try {
    const { origin } = new URL(url)
    return plainOrigin.test(origin) ? [origin] : []
  } catch {
    return []
  }
}

function headersFor(connectTo: readonly string[], styleHashes: readonly string[]): HtmlHeaders {
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${["'self'", ...styleHashes].join(' ')}`,
    "img-src 'self' data:",
    `connect-src ${["'self'", ...new Set(connectTo.flatMap(originOf))].join(' ')}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ]
  return {
    'content-security-policy': policy.join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  }
}

/**
 * The headers of an HTML answer: a `Content-Security-Policy` that lets the page load scripts,
 * styles and images from its own origin only (and the inline styles given, by hash), call its
 * own origin and `connectTo`, and be framed by nobody; `X-Content-Type-Options: nosniff`; and
 * `Referrer-Policy: no-referrer`. Build them once per page, not per request: hono's
 * `secureHeaders` sets them on every response after it is made, and knows no hash of a style.
 *
 * With `inlineStyles` the response is a promise, since Web Crypto hashes asynchronously; without,
 * the headers themselves.
 * @example c.html(page, 200, htmlHeaders({ connectTo: ['https://mail.example'] }))
 * @example const headers = await htmlHeaders({ inlineStyles: [style] })
 */
export function htmlHeaders(policy?: PagePolicy & { inlineStyles?: undefined }): HtmlHeaders
export function htmlHeaders(
  policy: PagePolicy & { inlineStyles: readonly string[] },
): Promise<HtmlHeaders>
export function htmlHeaders({
  connectTo = [],
  inlineStyles,
}: PagePolicy = {}): HtmlHeaders | Promise<HtmlHeaders> {
  if (inlineStyles === undefined) return headersFor(connectTo, [])
  return Promise.all(inlineStyles.map(inlineHash)).then((hashes) => headersFor(connectTo, hashes))
}
