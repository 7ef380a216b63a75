import { htmlHeaders } from '@movies-and-mail/http-kit'
import { Hono } from 'hono'
import { renderAppPage } from './page.js'
import type { WebAssets } from './web-assets.js'

/**
 * Serves the web app: the page at `/`, with a Content-Security-Policy that admits only its own
 * files and calls to its origin and the mail service, and its built files under `/assets/`.
 */
export function webRoutes({
  assets,
  mailServiceUrl,
}: {
  assets: WebAssets
  mailServiceUrl: string
}) {
  const page = renderAppPage({ mailServiceUrl })
  // The page's script calls this origin's /items and the mail service, nothing else.
  const pageHeaders = htmlHeaders({ connectTo: [mailServiceUrl] })
  return new Hono()
    .get('/', (c) => c.html(page, 200, pageHeaders))
    .get('/assets/:file', (c) => {
      const asset = assets.get(c.req.param('file'))
      if (!asset) return c.json({ error: 'no such asset' }, 404)
      c.header('content-type', asset.type)
      c.header('cache-control', 'no-cache')
      return c.body(asset.body as Uint8Array<ArrayBuffer>)
    })
}
