import { createRoute, z } from '@hono/zod-openapi'
import { errorResponse, guarded } from '@movies-and-mail/http-kit'

const limitQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .openapi({ description: 'How many records, newest first', example: 20 }),
})

const stored = { _id: z.string().openapi({ example: '019a3c5e2f1b0000a1b2c3d4' }) }

export const mailLogRecordSchema = z
  .object({
    ...stored,
    email: z.string(),
    name: z.string(),
    output: z.record(z.string(), z.unknown()).openapi({ description: "The provider's answer" }),
  })
  .openapi('MailLogRecord')

export const outboxMessageSchema = z
  .object({
    ...stored,
    id: z.string().openapi({ example: '<20260101120000.5f3c9a1b2d4e6f70@outbox.local>' }),
    from: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    queuedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('OutboxMessage')

export const mailLogRoute = createRoute(
  guarded({
    method: 'get',
    path: '/maillog',
    request: { query: limitQuery },
    summary: 'The mail log: one record per successful send, newest first',
    responses: {
      200: {
        description: 'The newest records',
        content: { 'application/json': { schema: z.array(mailLogRecordSchema) } },
      },
      400: errorResponse('`limit` is not an integer from 1 to 1000'),
      401: errorResponse('Missing or wrong `x-apikey`'),
      503: errorResponse('The mail log does not answer'),
    },
  }),
)

export const outboxRoute = createRoute(
  guarded({
    method: 'get',
    path: '/outbox',
    request: { query: limitQuery },
    summary: 'Messages the outbox transport captured instead of delivering, newest first',
    responses: {
      200: {
        description: 'The newest captured messages',
        content: { 'application/json': { schema: z.array(outboxMessageSchema) } },
      },
      400: errorResponse('`limit` is not an integer from 1 to 1000'),
      401: errorResponse('Missing or wrong `x-apikey`'),
      404: errorResponse('The outbox is off: mail goes to the provider'),
      503: errorResponse('The outbox store does not answer'),
    },
  }),
)
