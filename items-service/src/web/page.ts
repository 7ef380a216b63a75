import { html } from 'hono/html'

/**
 * The HTML shell of the web app: the script at /assets/app.js renders into #app.
 * The mail-service URL travels in a meta tag, so the same bundle works on any deployment.
 * The failure message is part of the HTML, so it shows (see app.css) when the script never runs;
 * the script hides it once it starts.
 * A tagged template rather than JSX: hono/jsx would switch on AsyncLocalStorage, whose hooks
 * then cost every request of the process.
 */
export function renderAppPage({ mailServiceUrl }: { mailServiceUrl: string }): string {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="mail-service-url" content="${mailServiceUrl}" />
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
