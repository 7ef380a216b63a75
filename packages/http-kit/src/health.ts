import * as z from 'zod/mini'
import { ApiApp } from './api-app.js'
import { apiRoute } from './api-route.js'
import { errorEntry } from './error-entry.js'
import { named } from './schema-docs.js'

const healthRoute = apiRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  tags: ['Health'],
  summary: 'Whether the service and its stores answer',
  description:
    'For load balancers and operators: 200 while every store answers, 503 with the reason ' +
    'otherwise. Needs no key.',
  security: [],
  responses: {
    200: {
      description: 'Serving: every store answers',
      content: {
        'application/json': {
          schema: named('Health', z.object({ status: z.literal('ok') }), {
            example: { status: 'ok' },
          }),
        },
      },
    },
    503: errorEntry('A store does not answer, or has no space left', 'a store does not answer'),
  },
})

/**
 * `GET /healthz`: 200 `{"status":"ok"}` when every store answers its `ping()`, otherwise 503
 * with `describe(error)` as the error (what a load balancer or an operator needs to hear,
 * nothing of the internals).
 * @example app.route('/', healthApp({ stores: [store], describe: () => 'database unavailable' }))
 */
export function healthApp({
  stores,
  describe,
  log,
}: {
  stores: readonly { ping(): Promise<void> }[]
  describe: (error: unknown) => string
  /** Where the reason of a failed check goes, newline included; nowhere when absent. */
  log?: (line: string) => void
}) {
  return new ApiApp().openapi(healthRoute, async (c) => {
    try {
      await Promise.all(stores.map((store) => store.ping()))
      return c.json({ status: 'ok' as const }, 200)
    } catch (error) {
      log?.(`healthz: ${error instanceof Error ? error.message : String(error)}\n`)
      return c.json({ error: describe(error) }, 503)
    }
  })
}
