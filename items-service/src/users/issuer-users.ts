import type { VerifyToken } from '@movies-and-mail/http-kit/app'
import type { IssuerSettings } from '../env.js'
import { type PageSignIn, pageSignInOf } from '../web/page.js'
import type { TokenVerifierOptions } from './token-verifier.js'

/**
 * The users of one OpenID issuer, as the app takes them: their tokens' verifier, the issuer, and
 * where the web page signs them in (with ITEMS_OIDC_CLIENT_ID; no sign-in on the page without).
 */
export type IssuerUsers = { verify: VerifyToken; issuer: string; signIn?: PageSignIn | undefined }

/**
 * The users of the issuer the settings name. jose and the key set load with the first token
 * (`token-verifier.ts`, a module of its own): a start, and every read, evaluate none of it.
 * `keys` tunes the key set's fetching (tests: a shorter refetch interval, a fetch of their own).
 */
export function issuerUsers(
  settings: IssuerSettings,
  keys: Partial<Omit<TokenVerifierOptions, 'issuer' | 'audience' | 'jwksUrl'>> = {},
): IssuerUsers {
  const { issuer, audience, jwksUrl } = settings
  let verifier: Promise<VerifyToken> | undefined
  const verify: VerifyToken = async (token) => {
    verifier ??= import('./token-verifier.js').then(({ tokenVerifier }) =>
      tokenVerifier({ issuer, audience, jwksUrl, ...keys }),
    )
    return (await verifier)(token)
  }
  return { verify, issuer, signIn: pageSignInOf(settings) }
}
