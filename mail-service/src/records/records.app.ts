import { OpenAPIHono } from '@hono/zod-openapi'
import { validationHook } from '@movies-and-mail/http-kit'
import type { MailLog } from '../mail-log/mail-log.js'
import type { OutboxMailer } from '../mailer/outbox-mailer.js'
import { mailLogRoute, outboxRoute } from './records.routes.js'

export type RecordsDeps = {
  mailLog: MailLog
  /** Present when the outbox transport is on. */
  outbox?: OutboxMailer
  logError?: (line: string) => void
}

/** `GET /maillog` and `GET /outbox`, both behind the API key (declared in their routes). */
export function recordsApp({ mailLog, outbox, logError = console.error }: RecordsDeps) {
  const app = new OpenAPIHono({ defaultHook: validationHook })
  const unavailable = (what: string, error: unknown) => {
    logError(`${what}: ${error instanceof Error ? error.message : String(error)}`)
    return `the ${what} does not answer`
  }
  return app
    .openapi(mailLogRoute, async (c) => {
      try {
        return c.json(await mailLog.list(c.req.valid('query')), 200)
      } catch (error) {
        return c.json({ error: unavailable('mail log', error) }, 503)
      }
    })
    .openapi(outboxRoute, async (c) => {
      if (!outbox) return c.json({ error: 'the outbox is off: mail goes to the provider' }, 404)
      try {
        return c.json(await outbox.list(c.req.valid('query')), 200)
      } catch (error) {
        return c.json({ error: unavailable('outbox', error) }, 503)
      }
    })
}
