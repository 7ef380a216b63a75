import type { MiddlewareHandler } from 'hono'

/** The policy source that allows an inline block with exactly this content. */
export async function inlineHash(content: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(content))
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`
}

/**
 * The headers of an HTML answer: a `Content-Security-Policy` that lets the page load scripts,
 * styles and images from its own origin only, plus the inline styles given (by hash), and be
 * framed by nobody; `X-Content-Type-Options: nosniff`; `Referrer-Policy: no-referrer`. Web
 * Crypto only, so it runs on Workers too; build them once per page, not per request.
 * @example const headers = await htmlHeaders({ inlineStyles: [style] })
 */
export async function htmlHeaders({
  inlineStyles = [],
}: {
  /** The exact content of each inline `<style>` of the page. */
  inlineStyles?: readonly string[]
} = {}): Promise<Record<string, string>> {
  const styles = ["'self'", ...(await Promise.all(inlineStyles.map(inlineHash)))]
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styles.join(' ')}`,
    "img-src 'self' data:",
    "connect-src 'self'",
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
 * `X-Content-Type-Options: nosniff` on every answer, set before the handler runs, so that a
 * browser never takes a JSON answer (which may echo what a caller sent) for a script or a page.
 */
export function noSniff(): MiddlewareHandler {
  return async function addNoSniff(c, next) {
    c.header('x-content-type-options', 'nosniff')
    await next()
  }
}
