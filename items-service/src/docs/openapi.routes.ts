import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Env } from 'hono'
import { htmlHeaders } from '../http/html-headers.js'
import { renderDocsPage } from './docs-page.js'
import { docsStyle } from './docs-style.js'

const documentInfo = {
  openapi: '3.1.0',
  info: {
    title: 'items-service',
    version: '1.0.0',
    description:
      'Movie records for browser apps. Every mutation answers the complete current list. Errors are `{"error": "..."}`, with `issues` for validation.',
  },
}

/**
 * Adds `GET /openapi.json` (OpenAPI 3.1, generated from the zod schemas the routes validate
 * with) and `GET /docs` (the same document as an HTML page) to `app`.
 */
export function addOpenApiRoutes<E extends Env>(app: OpenAPIHono<E>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-apikey',
    description: 'Needed for POST, PUT and DELETE when the service has ITEMS_APIKEY set',
  })
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined
  let docsPage: string | undefined
  const getDocument = () => {
    document ??= app.getOpenAPI31Document(documentInfo)
    return document
  }
  app.get('/openapi.json', (c) => c.json(getDocument()))
  // The page's one inline block is its stylesheet, allowed by hash; it has no script.
  const docsHeaders = htmlHeaders({ inlineStyles: [String(docsStyle)] })
  app.get('/docs', (c) => {
    docsPage ??= renderDocsPage(getDocument())
    return c.html(docsPage, 200, docsHeaders)
  })
}
