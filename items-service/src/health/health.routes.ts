import { createRoute, z } from '@hono/zod-openapi'
import { errorResponse } from '../http/error-response.js'

/** GET /healthz: whether the service and its database answer. */
export const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Whether the service and its database answer',
  responses: {
    200: {
      description: 'Serving',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } },
    },
    503: errorResponse('The database did not answer'),
  },
})
