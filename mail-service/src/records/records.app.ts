import { ApiApp } from '@movies-and-mail/http-kit/routes'
import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import type { RecordReader } from '../api-keys/key-owner.js'
import type { OutboxMailer } from '../mailer/outbox-mailer.js'
import type { MailEvents } from '../ports/mail-events.js'
import type { MailLog } from '../ports/mail-log.js'
import { deliveryOf } from './delivery.js'
import { mailLogRecordRoute, mailLogRoute, outboxRoute } from './records.routes.js'

export type RecordsDeps = {
  mailLog: MailLog
  /** Present when the outbox transport is on. */
  outbox?: OutboxMailer
  /** Whose records a key lists: its own, or every one for an admin key (`recordReader`). */
  readerOf: RecordReader
  /** The provider's events, which give each record its status; none: every one `accepted`. */
  events?: MailEvents | undefined
  logError?: (line: string) => void
}

/**
 * `GET /maillog`, `GET /maillog/{id}` and `GET /outbox`, behind the API key (declared in their
 * routes): a page of the records the key made (an admin key: of every record) newest first,
 * from `cursor` back, a full page linking the next in `Link`; or one record. Mail log records
 * carry their status and events (`deliveryOf`).
 */
export function recordsApp({
  mailLog,
  outbox,
  readerOf,
  events,
  logError = console.error,
}: RecordsDeps) {
  const records = deliveryOf(mailLog, events)
  // The error handler answers it 503 with its message; the cause goes to the error log.
  const unavailable = (what: string, error: unknown) => {
    logError(`${what}: ${error instanceof Error ? error.message : String(error)}`)
    return new StoreUnavailableError(`the ${what} does not answer`, { cause: error })
  }
  return new ApiApp()
    .openapi(mailLogRoute, async (c) => {
      const { limit, cursor, status } = c.req.valid('query')
      const { owner } = await readerOf(c.req.header('x-apikey') ?? '')
      try {
        const page = await records.list({ limit, before: cursor, owner, status })
        const link: Record<string, string> =
          page.next === undefined ? {} : { Link: nextLink('/maillog', limit, page.next, status) }
        return c.json(page.records, 200, link)
      } catch (error) {
        throw unavailable('mail log', error)
      }
    })
    .openapi(mailLogRecordRoute, async (c) => {
      const { id } = c.req.valid('param')
      const { owner } = await readerOf(c.req.header('x-apikey') ?? '')
      let record: Awaited<ReturnType<typeof records.get>>
      try {
        record = await records.get(id, owner)
      } catch (error) {
        throw unavailable('mail log', error)
      }
      if (!record) return c.json({ error: 'no mail log record of this key has this id' }, 404)
      // Without events the status never moves past `accepted`: a reader should not wait for it.
      return c.json(record, 200, { 'mail-events': events ? 'on' : 'off' })
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
  return { Link: nextLink(path, limit, last._id) }
}

/** The `Link` of the page that starts below `cursor`, of the same filter. */
function nextLink(path: string, limit: number, cursor: string, status?: string): string {
  const filter = status === undefined ? '' : `&status=${status}`
  return `<${path}?limit=${limit}${filter}&cursor=${cursor}>; rel="next"`
}
