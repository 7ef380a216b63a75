import { createRoute, z } from '@hono/zod-openapi'

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
