import { UserManager, WebStorageStateStore } from 'oidc-client-ts'

/** Where the page signs its users in, as the service wrote it into the page (page.ts). */
export type SignInSettings = { issuer: string; clientId: string; audience: string }

/** The page's sign-in settings, or none: the service has no issuer or no client id for the page. */
export function signInSettingsOfPage(): SignInSettings | undefined {
  const meta = (name: string) =>
    document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined
  const issuer = meta('oidc-issuer')
  const clientId = meta('oidc-client-id')
  const audience = meta('oidc-audience')
  return issuer && clientId && audience ? { issuer, clientId, audience } : undefined
}

/** RFC 8707 names a resource by an absolute URI; an audience of another form is no resource. */
const isAbsoluteUri = (text: string) => /^[a-z][a-z\d+.-]*:/i.test(text)

/**
 * The page's OpenID Connect client (oidc-client-ts): authorization code with PKCE, the user
 * coming back to the page itself (`<origin>/`, the redirect URI to register at the issuer).
 * Its access tokens are asked for the service's audience both ways issuers take it: RFC 8707's
 * `resource` (node-oidc-provider, Keycloak) and Auth0's `audience`.
 */
export function userManagerFor({ issuer, clientId, audience }: SignInSettings): UserManager {
  const page = `${window.location.origin}/`
  // The tokens, and the sign-in's state (its PKCE verifier), in sessionStorage, as the API key:
  // they last as long as the tab and no other tab sees them. localStorage would keep a bearer
  // token after the tab closes, for any later page of the origin to read.
  const store = new WebStorageStateStore({ store: window.sessionStorage })
  return new UserManager({
    authority: issuer,
    client_id: clientId,
    redirect_uri: page,
    post_logout_redirect_uri: page,
    response_type: 'code',
    scope: 'openid profile email',
    ...(isAbsoluteUri(audience) && { resource: audience }),
    extraQueryParams: { audience },
    userStore: store,
    stateStore: store,
    // No renewal behind the user's back: a silent renew runs the issuer in a hidden frame,
    // which third-party cookie rules break. An expired token is said so; the user signs in again.
    automaticSilentRenew: false,
    loadUserInfo: false,
  })
}

/** Who is signed in, from the ID token's claims. */
export type SignedInUser = {
  /** The user's `sub`: what the service stores as `_owner` of what they create. */
  sub: string
  /** What the page calls them: their name, else their user name, email or `sub`. */
  name: string
  email: string | undefined
}

/** What a callback URL carries: the issuer's answer to a sign-in, or to a sign-out. */
export function callbackOf(url: string): 'sign-in' | 'sign-out' | undefined {
  const query = new URL(url).searchParams
  if (query.has('state') && (query.has('code') || query.has('error'))) return 'sign-in'
  if (query.has('state')) return 'sign-out'
  return undefined
}
