import { html } from 'hono/html'
import type { IssuerSettings } from '../env.js'

/**
 * Where the page signs its users in: the OpenID issuer, the page's client id there, and the
 * audience its access tokens must name (ITEMS_JWT_ISSUER, ITEMS_OIDC_CLIENT_ID,
 * ITEMS_JWT_AUDIENCE).
 */
export type PageSignIn = { issuer: string; clientId: string; audience: string }

/** The page's sign-in, where an issuer and the page's client id at it are set; none otherwise. */
export function pageSignInOf(users: IssuerSettings | undefined): PageSignIn | undefined {
  if (users?.clientId === undefined) return undefined
  return { issuer: users.issuer, clientId: users.clientId, audience: users.audience }
}

/**
 * The HTML shell of the web app: the script at /assets/app.js renders into #app.
 * The mail-service URL and the sign-in's settings travel in meta tags, so the same bundle works
 * on any deployment; without `signIn` the page asks for the API key as before.
 * The failure message is part of the HTML, so it shows (see app.css) when the script never runs;
 * the script hides it once it starts.
 * A tagged template rather than JSX: hono/jsx would switch on AsyncLocalStorage, whose hooks
 * then cost every request of the process.
 */
export function renderAppPage({
  mailServiceUrl,
  signIn,
}: {
  mailServiceUrl: string
  signIn?: PageSignIn | undefined
}): string {
  const signInMeta = signIn
    ? html`
    <meta name="oidc-issuer" content="${signIn.issuer}" />
    <meta name="oidc-client-id" content="${signIn.clientId}" />
    <meta name="oidc-audience" content="${signIn.audience}" />`
    : ''
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="mail-service-url" content="${mailServiceUrl}" />${signInMeta}
    <title>Movies</title>
    <link rel="icon" href="/assets/icon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/assets/app.css" />
    <script type="module" src="/assets/app.js"></script>
  </head>
  <body>
    <header class="top">
      <h1>Movies</h1>
      <nav><a href="/docs">API docs</a></nav>
    </header>
    <p id="app-failed" class="app-failed" role="alert">Something went wrong; reload the page.</p>
    <main id="app">
      <noscript>This page needs JavaScript; the API itself is at /items.</noscript>
    </main>
  </body>
</html>
`.toString()
}
