import { jsonBytes, type ServiceEnv } from '@movies-and-mail/http-kit/app'
import { ApiApp } from '@movies-and-mail/http-kit/routes'
import { keyDigest } from '../api-keys/key-owner.js'
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
  return new ApiApp<ServiceEnv>().openapi(sendMailRoute, async (c) => {
    const { email, name } = c.req.valid('json')
    const apiKey = c.req.header('x-apikey') ?? ''
    // The request's log names the key by its digest, as its records do.
    c.set('keyDigest', await keyDigest(apiKey))
    const outcome = await sendMail(deps, {
      email,
      name,
      apiKey,
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
