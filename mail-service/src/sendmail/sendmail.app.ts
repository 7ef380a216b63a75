import { OpenAPIHono, type RouteHandler } from '@hono/zod-openapi'
import { validationHook } from '@movies-and-mail/http-kit'
import type { Env, Handler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { MailLog } from '../mail-log/mail-log.js'
import { composeMail, type Mailer, type MailTemplate } from '../mailer/mailer.js'
import { type RecordSendOptions, recordSend } from './record-send.js'
import { sendMailRoute } from './sendmail.routes.js'
import type { SendMailBody } from './sendmail.schema.js'

export type SendMailDeps = {
  mailer: Mailer
  mailLog: MailLog
  template: MailTemplate
  retry?: Omit<RecordSendOptions, 'logError'>
  logError?: (line: string) => void
}

/**
 * `POST /sendmail`, in the order the design fixes: API key and body (declared in the route),
 * send, log, answer.
 * The provider's success body is passed on byte for byte.
 */
export function sendMailApp({ mailer, mailLog, template, retry, logError }: SendMailDeps) {
  const app = new OpenAPIHono({ defaultHook: validationHook })
  const send: Handler<Env, '/sendmail', ValidatedBody> = async (c) => {
    const { email, name } = c.req.valid('json')
    const result = await mailer.send(composeMail(template, { email, name }))
    if (!result.ok) {
      return c.json({ error: result.error }, result.status as ContentfulStatusCode)
    }
    await recordSend(mailLog, { email, name, output: result.output }, { ...retry, logError })
    return c.body(result.body, 201, { 'content-type': 'application/json' })
  }
  // The 201 body is the provider's own bytes and a failure carries the provider's own status;
  // the typed responses cannot say that, the document does (201 and `default`).
  return app.openapi(sendMailRoute, send as unknown as RouteHandler<typeof sendMailRoute>)
}

type ValidatedBody = { in: { json: SendMailBody }; out: { json: SendMailBody } }
