import { jsonBytes } from '@movies-and-mail/http-kit/app'
import { ApiApp } from '@movies-and-mail/http-kit/routes'
import type { Background } from './background.js'
import { type SendMailDeps, sendMail } from './send-mail.js'
import { sendMailRoute } from './sendmail.routes.js'
import type { ProviderAnswer, UnreadableAnswer } from './sendmail.schema.js'

const encoder = new TextEncoder()

/**
 * `POST /sendmail`: its route checks the API key and the body (`sendmail.routes.ts`), `sendMail`
 * decides the response, and a send that outlives the response is kept running by `background`.
 */
export function sendMailApp({ background, ...deps }: SendMailDeps & { background: Background }) {
  return new ApiApp().openapi(sendMailRoute, async (c) => {
    const { email, name } = c.req.valid('json')
    const outcome = await sendMail(deps, {
      email,
      name,
      apiKey: c.req.header('x-apikey') ?? '',
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    if (outcome.followUp) background.keep(outcome.followUp, c)
    // The 201 is the provider's own bytes, passed on as they came; the 202 ours, kept as made.
    if (outcome.status === 201) {
      return jsonBytes<ProviderAnswer, 201>(c, encoder.encode(outcome.body), 201, outcome.headers)
    }
    if (outcome.status === 202) {
      return jsonBytes<UnreadableAnswer, 202>(c, encoder.encode(outcome.body), 202, outcome.headers)
    }
    const { status, body, headers } = outcome
    return c.json(body, status, headers)
  })
}
