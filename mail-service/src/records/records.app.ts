import { OpenAPIHono } from '@hono/zod-openapi'
import { validationHook } from '@movies-and-mail/http-kit'
import type { ListOptions, MailLog } from '../mail-log/mail-log.js'
import type { OutboxMailer } from '../mailer/outbox-mailer.js'
import { mailLogRoute, outboxRoute } from './records.routes.js'

export type RecordsDeps = {
  mailLog: MailLog
  /** Present when the outbox transport is on. */
  outbox?: OutboxMailer
  logError?: (line: string) => void
}

/**
 * `GET /maillog` and `GET /outbox`, both behind the API key (declared in their routes): a page
 * of records newest first, from `cursor` back; a full page links the next in `Link`.
 */
export function recordsApp({ mailLog, outbox, logError = console.error }: RecordsDeps) {
  const app = new OpenAPIHono({ defaultHook: validationHook })
  const unavailable = (what: string, error: unknown) => {
    logError(`${what}: ${error instanceof Error ? error.message : String(error)}`)
    return `the ${what} does not answer`
  }
  return app
    .openapi(mailLogRoute, async (c) => {
      const { limit, cursor } = c.req.valid('query')
      try {
        const records = await mailLog.list({ limit, before: cursor })
        return c.json(records, 200, nextPage('/maillog', limit, records))
      } catch (error) {
        return c.json({ error: unavailable('mail log', error) }, 503)
      }
    })
    .openapi(outboxRoute, async (c) => {
      if (!outbox) return c.json({ error: 'the outbox is off: mail goes to the provider' }, 404)
      const { limit, cursor } = c.req.valid('query')
      try {
        const page: ListOptions = { limit, before: cursor }
        const messages = await outbox.list(page)
        return c.json(messages, 200, nextPage('/outbox', limit, messages))
      } catch (error) {
        return c.json({ error: unavailable('outbox', error) }, 503)
      }
    })
}

/** A full page may have more before it: its `Link` names the page that follows. */
function nextPage(path: string, limit: number, records: { _id: string }[]): Record<string, string> {
  const last = records.at(-1)
  if (records.length < limit || !last) return {}
  return { Link: `<${path}?limit=${limit}&cursor=${last._id}>; rel="next"` }
}
