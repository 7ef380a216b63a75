import { html } from 'hono/html'
import { type TaggedResponse, taggedResponse } from './conditional-get.js'
import { type HtmlHeaders, htmlHeaders } from './html-headers.js'

/** Swagger UI's stylesheet and script, and the kit's script that starts it, as text. */
export type SwaggerUiFiles = { css: string; bundle: string; init: string }

/** A file of the page, with the version its URL names: the start of its SHA-256, in hex. */
type Asset = { bytes: Uint8Array; type: string; version: string }

/** What `GET /docs` and `GET /docs/{file}` answer, made once. */
export type DocsUi = {
  /** The page: it loads the files below and runs no inline script or style. */
  page: () => Promise<string>
  /** The page's headers: its own origin's files only, calls to its own origin only. */
  headers: HtmlHeaders
  /** A file of the page, as the request's `?v=` and `If-None-Match` make it; none for others. */
  file: (
    name: string,
    request: { version?: string | undefined; ifNoneMatch?: string | undefined },
  ) => Promise<TaggedResponse | undefined>
}

const css = 'text/css; charset=utf-8'
const js = 'text/javascript; charset=utf-8'
/** A year: the page names each file by a URL that changes with the file's content. */
const longLived = 'public, max-age=31536000, immutable'

async function versionOf(body: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body))
  return [...new Uint8Array(digest, 0, 8)]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
}

// Every URL is relative and the page is `/docs`, not `/docs/`: `docs/…` and `openapi.json` are
// then this service's own, at the root and behind a path prefix (`/mail/docs`) alike.
function renderPage(title: string, assets: ReadonlyMap<string, Asset>): string {
  const url = (name: string) => `docs/${name}?v=${assets.get(name)?.version}`
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${url('swagger-ui.css')}" />
    <script src="${url('swagger-ui-bundle.js')}" defer></script>
    <script src="${url('init.js')}" defer></script>
  </head>
  <body>
    <div id="swagger-ui"></div>
    <noscript><p>This page needs JavaScript. The API is described in <a href="openapi.json">openapi.json</a>.</p></noscript>
  </body>
</html>
`.toString()
}

async function build(title: string, files: SwaggerUiFiles) {
  const named: [string, string, string][] = [
    ['swagger-ui.css', files.css, css],
    ['swagger-ui-bundle.js', files.bundle, js],
    ['init.js', files.init, js],
  ]
  const assets = new Map<string, Asset>()
  for (const [name, body, type] of named) {
    assets.set(name, {
      bytes: new TextEncoder().encode(body),
      type,
      version: await versionOf(body),
    })
  }
  return { page: renderPage(title, assets), assets }
}

/**
 * Swagger UI for the service's `openapi.json`, served by the service itself: the page and the
 * files it loads (Swagger UI's stylesheet and bundle, the kit's init script). The files are read
 * on the first request that needs them. Each is answered with an `ETag` and, at the URL the page
 * names (`?v=` its version), as cacheable for a year; elsewhere as to be checked again.
 * @example const ui = docsUi('Mail API', readSwaggerUiFiles); await ui.file('init.js', {})
 */
export function docsUi(title: string, read: () => Promise<SwaggerUiFiles>): DocsUi {
  let built: ReturnType<typeof build> | undefined
  const get = () => {
    // A failed read is tried again by the next request rather than kept.
    built ??= read()
      .then((files) => build(title, files))
      .catch((error: unknown) => {
        built = undefined
        throw error
      })
    return built
  }
  return {
    page: async () => (await get()).page,
    headers: htmlHeaders(),
    file: async (name, { version, ifNoneMatch }) => {
      const asset = (await get()).assets.get(name)
      if (!asset) return undefined
      const cacheControl = version === asset.version ? longLived : 'no-cache'
      return taggedResponse({ body: asset.bytes, etag: `"${asset.version}"` }, ifNoneMatch, {
        'content-type': asset.type,
        'cache-control': cacheControl,
      })
    },
  }
}
