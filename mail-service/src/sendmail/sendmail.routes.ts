import { createRoute } from '@hono/zod-openapi'
import { errorResponse, guarded, jsonObjectBody } from '@movies-and-mail/http-kit'
import { providerAnswerSchema, sendMailBodySchema } from './sendmail.schema.js'

/** Largest accepted body. */
export const maxSendMailBodyBytes = 16 * 1024

export const sendMailRoute = createRoute(
  guarded({
    method: 'post',
    path: '/sendmail',
    summary: 'Send the fixed greeting to one recipient',
    description:
      'Checks `x-apikey`, then the body, then sends through the configured transport and logs ' +
      'the send to `maillog`. A provider error status is passed on with its status text.',
    middleware: jsonObjectBody({ maxBytes: maxSendMailBodyBytes }),
    request: {
      body: { required: true, content: { 'application/json': { schema: sendMailBodySchema } } },
    },
    responses: {
      201: {
        description: "Sent (or, with the outbox transport, captured); the provider's answer",
        content: { 'application/json': { schema: providerAnswerSchema } },
      },
      400: errorResponse('The body is not JSON, not an object, or fails validation'),
      401: errorResponse('Missing or wrong `x-apikey`'),
      413: errorResponse('The body is larger than 16 KiB'),
      415: errorResponse('The body is not `application/json`'),
      502: errorResponse('The mail provider could not be reached or gave an unreadable answer'),
      503: errorResponse('The outbox store is unavailable'),
      504: errorResponse('The mail provider did not answer within MAIL_TIMEOUT_MS'),
      default: errorResponse(
        "The provider's own error status (e.g. 400, 401, 429, 500), passed on with its status text",
      ),
    },
  }),
)
