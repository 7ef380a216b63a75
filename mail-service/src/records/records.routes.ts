import { guarded } from '@movies-and-mail/http-kit/app'
import { apiRoute, documented, errorEntry, named } from '@movies-and-mail/http-kit/routes'
import * as z from 'zod/mini'
import { deliveryStatuses, eventNames } from '../ports/mail-events.js'

/** An `_id` as the logs make them: the creation second in 8 hex digits, then 16 more. */
const recordIdExample = '6955b9004f1e2d3c4b000001'

const pageQuery = z.object({
  limit: documented(z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000)), 100), {
    description: 'How many records, newest first',
    example: 20,
  }),
  cursor: documented(
    z.optional(
      z.string().check(
        z.regex(/^[0-9a-f]{24}$/, {
          error: 'must be a record `_id`: 24 lowercase hex characters',
        }),
      ),
    ),
    {
      description:
        'The `_id` of the last record of the previous page: the page holds the records before ' +
        'it. The `Link` header of a full page gives it; without it the page starts at the newest.',
      example: recordIdExample,
    },
  ),
})

/** The response's `Link` header, present when the page is full: more may come before it. */
const nextPageLink = (path: string) => ({
  Link: {
    description:
      'When the page is full, the next one: ' +
      `\`<${path}?limit=<n>&cursor=<last _id>>; rel="next"\``,
    schema: { type: 'string' as const },
  },
})

const invalidQuery = errorEntry(
  '`limit` is not an integer from 1 to 1000, or `cursor` is not a record `_id`',
  {
    error: 'invalid query parameter',
    issues: [{ path: 'limit', message: 'Too big: expected number to be <=1000' }],
  },
)
const unauthorized = errorEntry('Missing or wrong `x-apikey`', 'Unauthorized')

/** What a key reads of a log: said alike by both routes. */
const ownScope = (what: string) =>
  `Each key lists only ${what} with it; a key of \`ADMIN_API_KEYS\` lists every one, ` +
  'the records made before records had owners included (only an admin key sees those).'

const stored = { _id: documented(z.string(), { example: recordIdExample }) }
const mailLogRecordExample = {
  _id: recordIdExample,
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  output: { id: '<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>', message: 'Queued. Thank you.' },
  status: 'failed',
  events: [
    { event: 'accepted', at: '2026-01-01T12:00:00.412Z' },
    {
      event: 'failed',
      at: '2026-01-01T12:00:03.870Z',
      severity: 'permanent',
      reason: 'bounce',
      code: 550,
      description: 'No such user',
    },
  ],
}

const statusSchema = documented(z.enum(deliveryStatuses), {
  description:
    'Where the mail stands: `accepted` by the provider at the send; `deferred` after a ' +
    'temporary failure (the provider tries again); `delivered`; `failed` (a permanent failure, ' +
    'a bounce); `complained` (marked as spam) or `unsubscribed`; `outbox` when the outbox ' +
    'kept it (never delivered). The newest event by its own time decides; `opened` and ' +
    '`clicked` are events, not statuses.',
})

const eventSchema = z.object({
  event: z.enum(eventNames),
  at: documented(z.string(), { format: 'date-time', description: "The provider's time of it" }),
  severity: z.optional(z.enum(['temporary', 'permanent'])),
  reason: z.optional(z.string()),
  code: documented(z.optional(z.number()), { description: "The receiving server's SMTP code" }),
  description: z.optional(z.string()),
})
const outboxMessageExample = {
  _id: recordIdExample,
  id: '<20260101120000.5f3c9a1b2d4e6f70@outbox.local>',
  from: 'Movies <no-reply@mg.example.com>',
  to: 'ada@example.com',
  subject: 'Hello from the movies app',
  text: 'Hello Ada Lovelace, thank you for getting in touch.',
  queuedAt: '2026-01-01T12:00:00.000Z',
}

export const mailLogRecordSchema = named(
  'MailLogRecord',
  z.object({
    ...stored,
    email: z.string(),
    name: z.string(),
    output: documented(z.record(z.string(), z.unknown()), { description: "The provider's answer" }),
    status: statusSchema,
    events: documented(z.array(eventSchema), {
      description:
        "The provider's events of the mail (`POST /webhooks/mailgun`), in the order they happened",
    }),
  }),
  { example: mailLogRecordExample },
)

export const outboxMessageSchema = named(
  'OutboxMessage',
  z.object({
    ...stored,
    id: documented(z.string(), { example: '<20260101120000.5f3c9a1b2d4e6f70@outbox.local>' }),
    from: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    queuedAt: documented(z.string(), { format: 'date-time' }),
  }),
  { example: outboxMessageExample },
)

const mailLogQuery = z.extend(pageQuery, {
  status: documented(z.optional(z.enum(deliveryStatuses)), {
    description:
      'Only the records of this status (`failed`: the bounces). A filtered page reads at most ' +
      '5000 records: it may hold fewer than `limit` and still link the next in `Link`.',
    example: 'failed',
  }),
})

export const mailLogRoute = apiRoute(
  guarded({
    method: 'get',
    path: '/maillog',
    operationId: 'listMailLog',
    tags: ['Records'],
    request: { query: mailLogQuery },
    summary: 'The mail log: one record per successful send, newest first',
    description:
      'A page of the mail log, newest first; a full page links the next in `Link`. ' +
      ownScope('the sends made'),
    responses: {
      200: {
        description:
          'The newest records of this key (every key, for an admin key), or those before `cursor`',
        headers: nextPageLink('/maillog'),
        content: {
          'application/json': {
            schema: z.array(mailLogRecordSchema),
            example: [mailLogRecordExample],
          },
        },
      },
      400: invalidQuery,
      401: unauthorized,
      503: errorEntry('The mail log does not answer', 'the mail log does not answer'),
    },
  }),
)

export const mailLogRecordRoute = apiRoute(
  guarded({
    method: 'get',
    path: '/maillog/{id}',
    operationId: 'getMailLogRecord',
    tags: ['Records'],
    request: {
      params: z.object({
        id: documented(
          z.string().check(
            z.regex(/^[0-9a-f]{24}$/, {
              error: 'must be a record `_id`: 24 lowercase hex characters',
            }),
          ),
          { example: recordIdExample },
        ),
      }),
    },
    summary: 'One send of the mail log, with its status and events',
    description:
      'The record a send made (the `Location` of its 201), with where the mail stands. Only the ' +
      'key that sent it reads it, and the keys of `ADMIN_API_KEYS`; to another key it does not ' +
      'exist (404).',
    responses: {
      200: {
        description: 'The record',
        headers: {
          'Mail-Events': {
            description:
              "`on` when the provider's events are filed (`MAILGUN_WEBHOOK_SIGNING_KEY` is set), " +
              'so the status moves as the mail does; `off` when they are not: the status stays ' +
              'where the send left it',
            schema: { type: 'string', enum: ['on', 'off'] },
          },
        },
        content: {
          'application/json': { schema: mailLogRecordSchema, example: mailLogRecordExample },
        },
      },
      400: errorEntry('`id` is not a record `_id`', {
        error: 'invalid path parameter',
        issues: [{ path: 'id', message: 'must be a record `_id`: 24 lowercase hex characters' }],
      }),
      401: unauthorized,
      404: errorEntry(
        'No record of this key has this id',
        'no mail log record of this key has this id',
      ),
      503: errorEntry('The mail log does not answer', 'the mail log does not answer'),
    },
  }),
)

export const outboxRoute = apiRoute(
  guarded({
    method: 'get',
    path: '/outbox',
    operationId: 'listOutbox',
    tags: ['Records'],
    request: { query: pageQuery },
    summary: 'Messages the outbox transport captured instead of delivering, newest first',
    description:
      'A page of the messages the outbox kept (the outbox transport), newest first; a full ' +
      'page links the next in `Link`. ' +
      ownScope('the messages captured'),
    responses: {
      200: {
        description:
          'The newest captured messages of this key (every key, for an admin key), or those ' +
          'before `cursor`',
        headers: nextPageLink('/outbox'),
        content: {
          'application/json': {
            schema: z.array(outboxMessageSchema),
            example: [outboxMessageExample],
          },
        },
      },
      400: invalidQuery,
      401: unauthorized,
      404: errorEntry(
        'The outbox is off: mail goes to the provider',
        'the outbox is off: mail goes to the provider',
      ),
      503: errorEntry('The outbox store does not answer', 'the outbox does not answer'),
    },
  }),
)
