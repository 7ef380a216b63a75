import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { errorResponse } from '../http/errors.js'

export const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Whether the stores answer',
  responses: {
    200: {
      description: 'Every store answers',
      content: {
        'application/json': {
          schema: z.object({ status: z.literal('ok') }).openapi('Health'),
        },
      },
    },
    503: errorResponse('A store does not answer'),
  },
})

/** `GET /healthz`: 200 when every store answers `ping()`, 503 otherwise. */
export function healthApp({
  stores,
  logError = console.error,
}: {
  stores: readonly { ping(): Promise<void> }[]
  logError?: (line: string) => void
}) {
  return new OpenAPIHono().openapi(healthRoute, async (c) => {
    try {
      await Promise.all(stores.map((store) => store.ping()))
      return c.json({ status: 'ok' as const }, 200)
    } catch (error) {
      logError(`healthz: ${error instanceof Error ? error.message : String(error)}`)
      return c.json({ error: 'a store does not answer' }, 503)
    }
  })
}
