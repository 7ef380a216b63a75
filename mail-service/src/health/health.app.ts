import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { errorResponse } from '../http/errors.js'
import { isNoSpace } from '../mail-log/mail-log.js'

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

/**
 * `GET /healthz`: 200 when every store answers `ping()`, 503 otherwise, saying when it is for
 * lack of space.
 */
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
      const reason = isNoSpace(error) ? 'a store has no space left' : 'a store does not answer'
      return c.json({ error: reason }, 503)
    }
  })
}
