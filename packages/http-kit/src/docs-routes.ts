import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi'
import type { Env } from 'hono'
import { renderDocsPage } from './docs-page.js'
import { htmlHeaders } from './html-headers.js'

/** What a service says of itself at the top of its document and page. */
export type ServiceInfo = { title: string; version: string; description: string }

export const openApiRoute = createRoute({
  method: 'get',
  path: '/openapi.json',
  summary: 'This document',
  responses: {
    200: {
      description: 'The OpenAPI 3.1 document, generated from the schemas the routes validate with',
      content: { 'application/json': { schema: z.looseObject({ openapi: z.string() }) } },
    },
  },
})

export const docsRoute = createRoute({
  method: 'get',
  path: '/docs',
  summary: 'This document as a web page',
  responses: {
    200: {
      description: 'An HTML page rendered on the server from the OpenAPI document',
      content: { 'text/html': { schema: z.string() } },
    },
  },
})

/**
 * Adds `GET /openapi.json` (OpenAPI 3.1, generated from the zod schemas the routes validate
 * with) and `GET /docs` (the same document as an HTML page) to `app`. Both are made on their
 * first request, so routes added after this call are in them too.
 * @example addDocsRoutes(app, { title: 'items-service', version: '1.0.0', description: '...' })
 */
export function addDocsRoutes<E extends Env>(app: OpenAPIHono<E>, info: ServiceInfo): void {
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined
  const getDocument = () => {
    document ??= app.getOpenAPI31Document({ openapi: '3.1.0', info })
    return document
  }
  let docs: Promise<{ html: string; headers: Record<string, string> }> | undefined
  const getDocs = async () => {
    const page = renderDocsPage(getDocument(), `${info.title} API`)
    // The page's one inline block is its stylesheet, allowed by hash; it has no script.
    return { html: page.html, headers: await htmlHeaders({ inlineStyles: [page.style] }) }
  }
  app.openapi(openApiRoute, (c) => c.json(getDocument(), 200))
  app.openapi(docsRoute, async (c) => {
    docs ??= getDocs()
    const { html, headers } = await docs
    return c.html(html, 200, headers)
  })
}
