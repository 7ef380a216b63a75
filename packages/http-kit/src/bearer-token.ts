import type { Context } from 'hono'
import { unreadBodyHeaders } from './unread-body.js'

/** What a token's verifier finds: whose the token is, or why it is refused. */
export type TokenVerdict =
  | { ok: true; subject: string }
  /** 401: the token is bad (`reason` names why, never quoting it); 503: its key cannot be had. */
  | { ok: false; status: 401 | 503; reason: string }

/**
 * Verifies a bearer token (a JWT of the service's issuer). A port: the kit holds no key set and
 * no signature code; a service passes one made with a well-kept library (items-service: jose).
 */
export type VerifyToken = (token: string) => Promise<TokenVerdict>

/** The users a service's guarded routes take: their tokens' verifier, and the realm refusals name. */
export type Users = { verify: VerifyToken; realm: string }

/** Longer `Authorization` values are refused before anything reads them (431). */
export const maxAuthorizationBytes = 8192

/** RFC 6750 §2.1: `Bearer` and a token68. The query string and the body are not looked at. */
const bearerPattern = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i

/**
 * The request's bearer token: its text, or `absent` (no `Authorization`, or one of another
 * scheme), `malformed` (`Bearer` without a token68) or `too-long`.
 */
export function bearerTokenOf(c: Context): string | 'absent' | 'malformed' | 'too-long' {
  const value = c.req.header('authorization')
  if (value === undefined) return 'absent'
  // Characters are at least a byte each: a length check first, without encoding anything.
  if (value.length > maxAuthorizationBytes) return 'too-long'
  if (new TextEncoder().encode(value).length > maxAuthorizationBytes) return 'too-long'
  if (!/^bearer(?: |$)/i.test(value)) return 'absent'
  return bearerPattern.exec(value)?.[1] ?? 'malformed'
}

/** A `WWW-Authenticate` quoted string: our reasons hold no quote, but a misuse never breaks one. */
const quoted = (text: string) => `"${text.replace(/["\\]/g, '')}"`

/**
 * The refusal of a write whose token is missing (401 with the realm alone, RFC 6750 §3), bad
 * (401, `error="invalid_token"` and the reason), too long (431), or under a key the service
 * cannot learn now (503: the token may be good). The body is the services' JSON error.
 */
export function tokenRefusal(
  c: Context,
  realm: string,
  refusal: 'absent' | 'too-long' | { status: 401 | 503; reason: string },
): Response {
  const headers: Record<string, string> = { ...unreadBodyHeaders(c) }
  if (refusal === 'too-long') {
    const error = `Authorization is longer than ${maxAuthorizationBytes} bytes`
    return c.json({ error }, 431, headers)
  }
  if (refusal === 'absent') {
    headers['www-authenticate'] = `Bearer realm=${quoted(realm)}`
    const error = "a write needs a signed-in user's token (Authorization: Bearer) or x-apikey"
    return c.json({ error }, 401, headers)
  }
  if (refusal.status === 503) {
    headers['retry-after'] = '30'
    return c.json({ error: refusal.reason }, 503, headers)
  }
  headers['www-authenticate'] =
    `Bearer realm=${quoted(realm)}, error="invalid_token", error_description=${quoted(refusal.reason)}`
  return c.json({ error: `invalid token: ${refusal.reason}` }, 401, headers)
}
