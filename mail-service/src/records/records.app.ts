import { ApiApp } from '@movies-and-mail/http-kit/routes'
import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import type { RecordReader } from '../api-keys/key-owner.js'
import type { OutboxMailer } from '../mailer/outbox-mailer.js'
import type { MailLog } from '../ports/mail-log.js'
import { mailLogRoute, outboxRoute } from './records.routes.js'

export type RecordsDeps = {
  mailLog: MailLog
  /** Present when the outbox transport is on. */
  outbox?: OutboxMailer
  /** Whose records a key lists: its own, or every one for an admin key (`recordReader`). */
  readerOf: RecordReader
  logError?: (line: string) => void
}

/**
 * `GET /maillog` and `GET /outbox`, both behind the API key (declared in their routes): a page
 * of the records the key made (an admin key: of every record) newest first, from `cursor` back;
 * a full page links the next in `Link`.
 */
export function recordsApp({ mailLog, outbox, readerOf, logError = console.error }: RecordsDeps) {
  // The error handler answers it 503 with its message; the cause goes to the error log.
  const unavailable = (what: string, error: unknown) => {
    logError(`${what}: ${error instanceof Error ? error.message : String(error)}`)
    return new StoreUnavailableError(`the ${what} does not answer`, { cause: error })
  }
  return new ApiApp()
    .openapi(mailLogRoute, async (c) => {
      const { limit, cursor } = c.req.valid('query')
      const { owner } = await readerOf(c.req.header('x-apikey') ?? '')
      try {
        const records = await mailLog.list({ limit, before: cursor, owner })
        return c.json(records, 200, nextPage('/maillog', limit, records))
      } catch (error) {
        throw unavailable('mail log', error)
      }
    })
    .openapi(outboxRoute, async (c) => {
      if (!outbox) return c.json({ error: 'the outbox is off: mail goes to the provider' }, 404)
      const { limit, cursor } = c.req.valid('query')
      const { owner } = await readerOf(c.req.header('x-apikey') ?? '')
      try {
        const messages = await outbox.list({ limit, before: cursor, owner })
        return c.json(messages, 200, nextPage('/outbox', limit, messages))
      } catch (error) {
        throw unavailable('outbox', error)
      }
    })
}

/** A full page may have more before it: its `Link` names the page that follows. */
function nextPage(path: string, limit: number, records: { _id: string }[]): Record<string, string> {
  const last = records.at(-1)
  if (records.length < limit || !last) return {}
  return { Link: `<${path}?limit=${limit}&cursor=${last._id}>; rel="next"` }
}
