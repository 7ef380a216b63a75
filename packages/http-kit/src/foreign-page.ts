import type { Context } from 'hono'

/**
 * Whether a request comes from a page on another origin that may not write without the key. A
 * browser sends `Origin` with every write it makes for a page, and `Sec-Fetch-Site` too; a page
 * of the service's own origin (its web app: `Origin`'s host is the host the request asked, as its
 * URL says: on Node the `Host` header, on Workers the URL the platform received), an origin
 * `mayWrite` allows, and a client that is no browser (it sends neither) pass. `Origin: null`
 * (a sandboxed frame, a file) is foreign.
 */
export function isForeignPage(c: Context, mayWrite: (origin: string | undefined) => boolean) {
  const origin = c.req.header('origin')
  if (origin === undefined) {
    const site = c.req.header('sec-fetch-site')
    return site === 'cross-site' || site === 'same-site'
  }
  if (mayWrite(origin)) return false
  try {
    return new URL(origin).host !== new URL(c.req.url).host
  } catch {
    return true
  }
}
