import { Hono } from 'hono'
import { renderAppPage } from './page.js'
import type { WebAssets } from './web-assets.js'

/** Serves the web app: the page at `/` and its built files under `/assets/`. */
export function webRoutes({
  assets,
  mailServiceUrl,
}: {
  assets: WebAssets
  mailServiceUrl: string
}) {
  const page = renderAppPage({ mailServiceUrl })
  return new Hono()
    .get('/', (c) => c.html(page))
    .get('/assets/:file', (c) => {
      const asset = assets.get(c.req.param('file'))
      if (!asset) return c.json({ error: 'no such asset' }, 404)
      c.header('content-type', asset.type)
      c.header('cache-control', 'no-cache')
      return c.body(asset.body as Uint8Array<ArrayBuffer>)
    })
}
