import { guarded, jsonObjectBody } from '@movies-and-mail/http-kit/app'
import { apiRoute, documented, errorEntry } from '@movies-and-mail/http-kit/routes'
import * as z from 'zod/mini'
import { validIdempotencyKey } from '../ports/idempotency-store.js'
import {
  providerAnswerSchema,
  sendMailBodySchema,
  unreadableAnswerSchema,
} from './sendmail.schema.js'

/** Largest accepted body. */
export const maxSendMailBodyBytes = 16 * 1024

const idempotencyKey = documented(
  z.string().check(z.regex(validIdempotencyKey, 'must be 1-255 printable ASCII characters')),
  {
    description:
      'Makes a retry safe: a repeat with the same key and body within 24 hours gets the first ' +
      'answer again (with `Idempotent-Replayed: true`) and sends nothing. Scoped to the API key.',
    example: 'signup-4711',
  },
)

export const sendMailRoute = apiRoute(
  guarded({
    method: 'post',
    path: '/sendmail',
    operationId: 'sendMail',
    tags: ['Mail'],
    summary: 'Send the fixed greeting to one recipient',
    description:
      'Checks `x-apikey`, then the body, then sends through the configured transport and logs ' +
      'the send to `maillog`, filed under the API key: `GET /maillog` and `GET /outbox` list ' +
      'it to that key (and to the keys of `ADMIN_API_KEYS`) only. A provider error status is ' +
      'passed on with its status text.',
    middleware: jsonObjectBody({ maxBytes: maxSendMailBodyBytes }),
    request: {
      // Checked before the body's JSON: a request wrong in both hears of its header.
      headers: z.object({ 'idempotency-key': z.optional(idempotencyKey) }),
      body: { required: true, content: { 'application/json': { schema: sendMailBodySchema } } },
    },
    responses: {
      201: {
        description: "Sent (or, with the outbox transport, captured); the provider's answer",
        headers: {
          Location: {
            description:
              'The mail log record of the send, where its status is read (`GET /maillog/{id}`); ' +
              'absent on a replayed answer and when the mail log could not keep the record',
            schema: { type: 'string', example: '/maillog/6955b9004f1e2d3c4b000001' },
          },
          'Idempotent-Replayed': {
            description: '`true` when this is the kept answer of an earlier request with the key',
            schema: { type: 'string', enum: ['true'] },
          },
        },
        content: { 'application/json': { schema: providerAnswerSchema } },
      },
      202: {
        description:
          'Sent: the provider answered 2xx, but its answer could not be read (not a JSON ' +
          'object, empty, or cut off). Logged with `output: {status, unreadable}`; a retry ' +
          'with the same `Idempotency-Key` gets this response again and sends nothing',
        headers: {
          'Idempotent-Replayed': {
            description: '`true` when this is the kept response of an earlier request with the key',
            schema: { type: 'string', enum: ['true'] },
          },
        },
        content: { 'application/json': { schema: unreadableAnswerSchema } },
      },
      400: errorEntry('The body is not JSON, not an object, or fails validation', {
        error: 'invalid request body',
        issues: [
          { path: 'email', message: 'must be exactly one email address, like ada@example.com' },
        ],
      }),
      401: errorEntry('Missing or wrong `x-apikey`', 'Unauthorized'),
      408: errorEntry(
        'The body did not all arrive within BODY_TIMEOUT_MS; the connection closes',
        'the request body did not arrive within 30 s',
      ),
      413: errorEntry('The body is larger than 16 KiB', 'request body is larger than 16384 bytes'),
      409: {
        ...errorEntry(
          'A request with this `Idempotency-Key` is still in progress (with `Retry-After`), or ' +
            'its outcome is unknown (the provider never answered, the connection to it was lost ' +
            'before its answer, or the service stopped mid-send): the mail may have been sent, so it is never sent again with this key',
          'a request with this Idempotency-Key is in progress',
        ),
        headers: {
          'Retry-After': {
            description: 'While the request is in progress: seconds before asking again',
            schema: { type: 'integer', minimum: 1 },
          },
        },
      },
      415: errorEntry(
        'The body is not `application/json`',
        'Content-Type must be application/json',
      ),
      422: errorEntry(
        'This `Idempotency-Key` was used with another body',
        'this Idempotency-Key was used with another request body',
      ),
      429: {
        ...errorEntry(
          'Over RATE_LIMIT_PER_RECIPIENT or RATE_LIMIT_PER_KEY; nothing was sent. The ' +
            'recipient limit counts an inbox, not a spelling: the address in lower case, ' +
            'without the `+tag` of its local part, its domain in its IDNA ASCII form ' +
            '(`Ada+news@Ｅxample.com` counts as `ada@example.com`, `ada@münchen.de` as ' +
            '`ada@xn--mnchen-3ya.de`; dots are kept)',
          'too many sends for this recipient; try again in 60 s',
        ),
        headers: {
          'Retry-After': {
            description: 'Seconds until a send fits in the limit again',
            schema: { type: 'integer', minimum: 1 },
          },
        },
      },
      502: errorEntry(
        'The mail provider could not be reached or answered a redirect: nothing was sent. Or ' +
          'the connection to it was lost before it answered, once the request may have gone ' +
          'out: the outcome is unknown, the send counts against the limits, and a retry with ' +
          'the same `Idempotency-Key` is answered 409, never sent again',
        'the mail provider could not be reached',
      ),
      503: errorEntry(
        'A store (outbox, idempotency keys, send counts) does not answer',
        'the send counter does not answer',
      ),
      504: errorEntry(
        'The mail provider did not answer within MAIL_TIMEOUT_MS; the send is still followed ' +
          'up to MAIL_GIVE_UP_MS, and a retry with the same `Idempotency-Key` gets its outcome ' +
          '(409 while it is not known)',
        'the mail provider did not answer in time',
      ),
      507: errorEntry('No space left to store the request', 'no space left to store the request'),
      default: errorEntry(
        "The provider's own error status (e.g. 400, 401, 429, 500), passed on with its status text",
        'Internal Server Error',
      ),
    },
  }),
)
