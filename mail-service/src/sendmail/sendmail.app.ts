import { OpenAPIHono, type RouteHandler } from '@hono/zod-openapi'
import type { Env, Handler } from 'hono'
import type { Background } from './background.js'
import { type SendMailDeps, sendMail } from './send-mail.js'
import { sendMailRoute } from './sendmail.routes.js'
import type { SendMailBody } from './sendmail.schema.js'

type Validated = {
  in: { json: SendMailBody; header: { 'idempotency-key'?: string } }
  out: { json: SendMailBody; header: { 'idempotency-key'?: string } }
}

/**
 * `POST /sendmail`: its route checks the API key and the body (`sendmail.routes.ts`), `sendMail`
 * decides the answer, and a send that outlives the answer is kept running by `background`.
 */
export function sendMailApp({ background, ...deps }: SendMailDeps & { background: Background }) {
  const send: Handler<Env, '/sendmail', Validated> = async (c) => {
    const { email, name } = c.req.valid('json')
    const { status, body, headers, followUp } = await sendMail(deps, {
      email,
      name,
      apiKey: c.req.header('x-apikey') ?? '',
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    if (followUp) background.keep(followUp, c)
    if (typeof body !== 'string') return c.json(body, status, headers)
    return c.body(body, status, { 'content-type': 'application/json', ...headers })
  }
  // The 201 body is the provider's own bytes and a failure carries the provider's own status;
  // the typed responses cannot say that, the document does (201 and `default`).
  return new OpenAPIHono().openapi(
    sendMailRoute,
    send as unknown as RouteHandler<typeof sendMailRoute>,
  )
}
