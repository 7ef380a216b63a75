import {
  type DeliveryStatus,
  type MailEvent,
  type MailEvents,
  messageIdOf,
  statusOf,
} from '../ports/mail-events.js'
import type { ListOptions, MailLog, MailLogEntry, Stored } from '../ports/mail-log.js'

/** An event as a record answers it: its id is the store's business, not the caller's. */
export type ShownEvent = Omit<MailEvent, 'id'>

/** A mail log record with where its mail stands. */
export type DeliveredRecord = Stored<MailLogEntry> & {
  status: DeliveryStatus
  events: ShownEvent[]
}

/** The outbox's message ids: such a mail was kept, never delivered. */
const outboxId = /@outbox\.local>?$/

/**
 * Reads the mail log with each record's status and events (filed by the provider's message id,
 * see `MailEvents`): `accepted` until an event says more, `outbox` for a mail the outbox kept.
 * @example const records = deliveryOf(mailLog, events); await records.list({ limit: 20 })
 */
export function deliveryOf(mailLog: MailLog<MailLogEntry>, events: MailEvents | undefined) {
  const withStatus = async (records: Stored<MailLogEntry>[]): Promise<DeliveredRecord[]> => {
    const ids = records.map((record) => messageIdOf(record.output) ?? '')
    const found = events ? await events.eventsOf(ids.filter(Boolean)) : new Map()
    return records.map((record, index) => {
      const filed: MailEvent[] = found.get(ids[index] ?? '') ?? []
      const outbox = outboxId.test(String(record.output.id ?? ''))
      return {
        ...record,
        status: statusOf(filed, outbox ? 'outbox' : 'accepted'),
        events: filed.map(({ id: _id, ...shown }) => shown),
      }
    })
  }
  return {
    /**
     * A page newest first; with `status`, of the records that have it, reading at most
     * `scanLimit` records for it: `next` is where the following page starts, unset at the end.
     */
    async list(
      options: ListOptions & { status?: DeliveryStatus | undefined },
      scanLimit = 5_000,
    ): Promise<{ records: DeliveredRecord[]; next: string | undefined }> {
      const { status, limit } = options
      if (status === undefined) {
        const records = await withStatus(await mailLog.list(options))
        return { records, next: records.length === limit ? records.at(-1)?._id : undefined }
      }
      const found: DeliveredRecord[] = []
      let before = options.before
      let scanned = 0
      const batch = Math.max(limit, 100)
      while (found.length < limit && scanned < scanLimit) {
        const page = await mailLog.list({ ...options, limit: batch, before })
        for (const record of await withStatus(page)) {
          if (found.length === limit) break
          before = record._id
          if (record.status === status) found.push(record)
        }
        scanned += page.length
        if (page.length < batch && found.length < limit) return { records: found, next: undefined }
      }
      return { records: found, next: before }
    },
    /** The record `id` (of `owner`, when given), or undefined. */
    async get(id: string, owner: string | undefined): Promise<DeliveredRecord | undefined> {
      // `before` is exclusive: below the id after `id`, the newest record is `id`, if any.
      const [newest] = await mailLog.list({ limit: 1, before: idAfter(id), owner })
      if (newest?._id !== id) return undefined
      const [record] = await withStatus([newest])
      return record
    },
  }
}

/** The `_id` that follows `id` (24 hex digits); none after the last. */
function idAfter(id: string): string | undefined {
  const next = BigInt(`0x${id}`) + 1n
  return next >= 1n << 96n ? undefined : next.toString(16).padStart(24, '0')
}
