import { OpenAPIHono } from '@hono/zod-openapi'
import { jsonBytes } from '@movies-and-mail/http-kit/json'
import type { Background } from './background.js'
import { type FailureStatus, type SendMailDeps, sendMail } from './send-mail.js'
import { sendMailRoute } from './sendmail.routes.js'
import type { ProviderAnswer } from './sendmail.schema.js'

/** The failure statuses the route declares one by one; its `default` stands for the others. */
type Declared = Extract<FailureStatus, keyof typeof sendMailRoute.responses>

function declared(status: FailureStatus): status is Declared {
  return status in sendMailRoute.responses
}

const encoder = new TextEncoder()

/**
 * `POST /sendmail`: its route checks the API key and the body (`sendmail.routes.ts`), `sendMail`
 * decides the answer, and a send that outlives the answer is kept running by `background`.
 */
export function sendMailApp({ background, ...deps }: SendMailDeps & { background: Background }) {
  return new OpenAPIHono().openapi(sendMailRoute, async (c) => {
    const { email, name } = c.req.valid('json')
    const outcome = await sendMail(deps, {
      email,
      name,
      apiKey: c.req.header('x-apikey') ?? '',
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    if (outcome.followUp) background.keep(outcome.followUp, c)
    // The 201 is the provider's own bytes, passed on as they came.
    if (outcome.status === 201) {
      return jsonBytes<ProviderAnswer, 201>(c, encoder.encode(outcome.body), 201, outcome.headers)
    }
    const { status, body, headers } = outcome
    // Both answer alike: the route's entry for a status it declares types the one, its
    // `default` (a provider's own status) the other.
    return declared(status) ? c.json(body, status, headers) : c.json(body, status, headers)
  })
}
