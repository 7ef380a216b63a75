import type { TokenVerdict, VerifyToken } from '@movies-and-mail/http-kit/app'
import { JOSEError } from 'jose/errors'
import { jwtVerify } from 'jose/jwt/verify'
import { IssuerKeys, type IssuerKeysOptions, KeysUnavailableError } from './issuer-keys.js'

/**
 * The asymmetric algorithms of JWA and RFC 8037: every `HS*` (a token "signed" with the public
 * key as an HMAC secret) and `none` are refused before any key is looked at.
 */
const algorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]

/** The clock skew allowed on `exp`, `nbf` and `iat`, in seconds. */
export const clockSkewSeconds = 60

export type TokenVerifierOptions = IssuerKeysOptions & {
  /** ITEMS_JWT_AUDIENCE: what the token's `aud` must hold. */
  audience: string
}

/** Why jose refused a token, in words a client can act on; no part of the token in them. */
function reasonOf(error: JOSEError): string {
  const claim = (error as { claim?: string }).claim
  switch (error.code) {
    case 'ERR_JWT_EXPIRED':
      return 'the token has expired (exp)'
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return "the token's algorithm is not allowed: only RS*, PS*, ES* and EdDSA"
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return "the token's signature does not verify"
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return "no key of the issuer matches the token's header (kid, alg)"
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'several keys of the issuer match a token without a kid'
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'iss') return 'the token is from another issuer (iss)'
      if (claim === 'aud') return 'the token is for another audience (aud)'
      if (claim === 'nbf') return 'the token is not valid yet (nbf)'
      if (claim === 'exp') return 'the token has no valid expiry (exp)'
      if (claim === 'sub') return 'the token names no subject (sub)'
      return `the token's ${claim ?? 'claims'} claim is invalid`
    case 'ERR_JOSE_NOT_SUPPORTED':
      return "the token's key or algorithm is not supported"
    default:
      return 'the token is not a well-formed signed JWT'
  }
}

/**
 * Verifies a user's bearer token as RFC 7519 and RFC 8725 say, with jose (no signature code of
 * ours): signed by one of the issuer's keys (`IssuerKeys`) under an asymmetric algorithm, `iss`
 * exactly the issuer, `aud` holding the audience, `exp` required, `exp`/`nbf`/`iat` within
 * `clockSkewSeconds`, and a `sub`: who writes. A key that cannot be had now is 503 (the token
 * may be good), every other refusal 401 with its reason.
 * @example const verify = tokenVerifier({ issuer: 'https://id.example', audience: 'items' })
 */
export function tokenVerifier({ audience, ...keyOptions }: TokenVerifierOptions): VerifyToken {
  const keys = new IssuerKeys(keyOptions)
  const { issuer, now = Date.now } = keyOptions
  return async (token): Promise<TokenVerdict> => {
    try {
      const { payload } = await jwtVerify(token, keys.keyFor, {
        issuer,
        audience,
        algorithms,
        clockTolerance: clockSkewSeconds,
        currentDate: new Date(now()),
        requiredClaims: ['exp', 'sub'],
      })
      // jose checks `iat` is a number, but its time only with `maxTokenAge`.
      if (payload.iat !== undefined && payload.iat > now() / 1000 + clockSkewSeconds) {
        return { ok: false, status: 401, reason: 'the token was issued in the future (iat)' }
      }
      if (typeof payload.sub !== 'string' || payload.sub === '') {
        return { ok: false, status: 401, reason: 'the token names no subject (sub)' }
      }
      return { ok: true, subject: payload.sub }
    } catch (error) {
      if (error instanceof KeysUnavailableError) {
        return { ok: false, status: 503, reason: error.message }
      }
      if (error instanceof JOSEError) return { ok: false, status: 401, reason: reasonOf(error) }
      throw error
    }
  }
}
