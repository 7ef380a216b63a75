import { ApiApp, apiRoute, documented, errorEntry } from '@movies-and-mail/http-kit/routes'
import * as z from 'zod/mini'
import type { PageSignIn } from './page.js'
import { pageHandler } from './page-handler.js'
import type { WebAssets } from './web-assets.js'

const webPageRoute = apiRoute({
  method: 'get',
  path: '/',
  operationId: 'getWebPage',
  tags: ['Web app'],
  summary: 'The web app',
  description: 'The page of the movie list and the mail form; its script calls this API.',
  security: [],
  responses: {
    200: {
      description: 'The HTML shell of the web app; its script and styles come from /assets/',
      content: {
        'text/html': {
          schema: documented(z.string(), { example: '<!doctype html><html>…</html>' }),
        },
      },
    },
  },
})

/** A file of the media types `mediaTypeOf` gives: script, styles, icons, source maps. */
const text = (example: string) => ({ schema: z.string(), example })
const binary = { schema: documented(z.string(), { format: 'binary' }) }

const webAssetRoute = apiRoute({
  method: 'get',
  path: '/assets/{file}',
  operationId: 'getWebAsset',
  tags: ['Web app'],
  summary: 'A file of the web app',
  description: "The web app's built files, by name, with their media type.",
  security: [],
  request: {
    params: z.object({ file: documented(z.string(), { example: 'app.js' }) }),
  },
  responses: {
    200: {
      description: 'The file',
      content: {
        'text/javascript': text('import{render}from"hono/jsx/dom";…'),
        'text/css': text(':root{color-scheme:light dark}…'),
        'image/svg+xml': text(
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">…</svg>',
        ),
        'application/json': { schema: z.looseObject({}), example: { version: 3, mappings: '…' } },
        'image/png': binary,
        'application/octet-stream': binary,
      },
    },
    404: errorEntry('The web app has no file of that name', 'no such asset'),
  },
})

/**
 * Serves the web app: the page at `/` (`pageHandler`) and its built files under `/assets/`.
 * With `signIn` the page signs its users in at the issuer.
 */
export function webRoutes({
  assets,
  mailServiceUrl,
  signIn,
}: {
  assets: WebAssets
  mailServiceUrl: string
  signIn?: PageSignIn | undefined
}) {
  return new ApiApp()
    .openapi(webPageRoute, pageHandler({ mailServiceUrl, signIn }))
    .openapi(webAssetRoute, (c) => {
      const asset = assets.get(c.req.valid('param').file)
      if (!asset) return c.json({ error: 'no such asset' }, 404)
      c.header('content-type', asset.type)
      c.header('cache-control', 'no-cache')
      return c.body(asset.body as Uint8Array<ArrayBuffer>)
    })
}
