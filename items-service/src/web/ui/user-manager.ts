import { UserManager, WebStorageStateStore } from 'oidc-client-ts'
import type { SignInSettings } from './sign-in.js'

// A module of its own, loaded only where the page signs users in: oidc-client-ts is more than
// the rest of the page's script, and a page without an issuer never needs it.

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
