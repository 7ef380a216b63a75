import { OpenAPIHono } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { validationHook } from '../http/errors.js'
import type { MailLog } from '../mail-log/mail-log.js'
import type { OutboxMailer } from '../mailer/outbox-mailer.js'
import { mailLogRoute, outboxRoute } from './records.routes.js'

export type RecordsDeps = {
  mailLog: MailLog
  /** Present when the outbox transport is on. */
  outbox?: OutboxMailer
  requireApiKey: MiddlewareHandler
  logError?: (line: string) => void
}

/** `GET /maillog` and `GET /outbox`, both behind the API key. */
export function recordsApp({
  mailLog,
  outbox,
  requireApiKey,
  logError = console.error,
}: RecordsDeps) {
  const app = new OpenAPIHono({ defaultHook: validationHook })
  const unavailable = (what: string, error: unknown) => {
    logError(`${what}: ${error instanceof Error ? error.message : String(error)}`)
    return `the ${what} does not answer`
  }
  return app
    .openapi({ ...mailLogRoute, middleware: [requireApiKey] }, async (c) => {
      try {
        return c.json(await mailLog.list(c.req.valid('query')), 200)
      } catch (error) {
        return c.json({ error: unavailable('mail log', error) }, 503)
      }
    })
    .openapi({ ...outboxRoute, middleware: [requireApiKey] }, async (c) => {
      if (!outbox) return c.json({ error: 'the outbox is off: mail goes to the provider' }, 404)
      try {
        return c.json(await outbox.list(c.req.valid('query')), 200)
      } catch (error) {
        return c.json({ error: unavailable('outbox', error) }, 503)
      }
    })
}
