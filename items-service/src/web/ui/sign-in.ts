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
