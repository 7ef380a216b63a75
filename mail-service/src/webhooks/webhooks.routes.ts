import { jsonObjectBody } from '@movies-and-mail/http-kit/app'
import { apiRoute, errorEntry } from '@movies-and-mail/http-kit/routes'
import * as z from 'zod/mini'
import { mailgunWebhookSchema } from './mailgun-event.js'

/** Largest accepted body: Mailgun's events are a few KiB, with user variables and headers. */
export const maxWebhookBodyBytes = 64 * 1024

export const filedSchema = z.object({ filed: z.boolean() })

export const mailgunWebhookRoute = apiRoute({
  method: 'post',
  path: '/webhooks/mailgun',
  operationId: 'receiveMailgunEvent',
  tags: ['Events'],
  summary: "Mailgun's report of what happened to a message (its webhook)",
  description:
    "Mailgun calls it, signed with the domain's webhook signing key " +
    '(`MAILGUN_WEBHOOK_SIGNING_KEY`); no `x-apikey`. The signature is checked in constant ' +
    'time, its timestamp must be within 15 minutes of now, and its token is taken once: the ' +
    'same event again (Mailgun retrying) is 200 and filed once, another body with a used token ' +
    'is refused. The event is filed with its send by the message id; `GET /maillog/{id}` shows ' +
    'it. A refusal files nothing.',
  security: [],
  middleware: jsonObjectBody({ maxBytes: maxWebhookBodyBytes }),
  request: {
    body: { required: true, content: { 'application/json': { schema: mailgunWebhookSchema } } },
  },
  responses: {
    200: {
      description:
        'Taken: `filed` is false when the event was filed before (a retry) or is one the ' +
        'service does not follow. An event of a message this service never sent shows on no ' +
        'record.',
      content: { 'application/json': { schema: filedSchema, example: { filed: true } } },
    },
    400: errorEntry('The body is not JSON, not an object, or not a Mailgun event', {
      error: 'invalid request body',
      issues: [{ path: 'signature.token', message: 'Invalid input: expected string' }],
    }),
    401: errorEntry(
      'The signature is not that of MAILGUN_WEBHOOK_SIGNING_KEY',
      "the signature is not Mailgun's",
    ),
    404: errorEntry(
      'Mail events are off: MAILGUN_WEBHOOK_SIGNING_KEY is not set',
      'mail events are off: MAILGUN_WEBHOOK_SIGNING_KEY is not set',
    ),
    406: errorEntry(
      'The timestamp is more than 15 minutes from now (Mailgun does not retry a 406)',
      'the signature timestamp is more than 15 minutes from now',
    ),
    409: errorEntry(
      'The token was used by another event: a replayed signature',
      'this signature token was used by another event',
    ),
    413: errorEntry('The body is larger than 64 KiB', 'request body is larger than 65536 bytes'),
    415: errorEntry('The body is not `application/json`', 'Content-Type must be application/json'),
    503: errorEntry(
      'The store of events does not answer (Mailgun tries again)',
      'the store of mail events does not answer',
    ),
  },
})
