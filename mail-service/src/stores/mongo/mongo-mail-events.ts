import { isDuplicateKey, withinDeadline } from '@movies-and-mail/mongo-kit'
import type { Collection, Db, IndexDescription, OptionalUnlessRequiredId } from 'mongodb'
import { inOrder, type MailEvent, type MailEvents } from '../../ports/mail-events.js'
import { ensureIndexes } from './mongo-indexes.js'

/** An event as the collection keeps it: its id is `_id`, its time a date for the TTL index. */
type EventDocument = Omit<MailEvent, 'id' | 'at'> & { _id: string; messageId: string; at: Date }
/** A token: `_id`, with the event that took it, forgotten once `expiresAt` has passed. */
type TokenDocument = { _id: string; eventId: string; expiresAt: Date }

export type MongoMailEventsOptions = {
  /** How long each operation waits for the database. */
  timeoutMs: number
  /** MAILLOG_RETENTION_DAYS: events are forgotten with the records they are filed with. */
  retentionDays: number
}

/**
 * Mailgun's events in MongoDB (collections `mail_events` and `webhook_tokens`), shared by every
 * process on the database. An event's id and a token are each a document's `_id`, so the unique
 * index every collection has files an event once, and gives a token to one event, whichever
 * process asked first: the second insert is refused (E11000). A token that expired is taken
 * over by one replace whose filter says so. Both collections forget by TTL indexes.
 * @example const events = await MongoMailEvents.open(db, { timeoutMs: 10_000, retentionDays: 90 })
 */
export class MongoMailEvents implements MailEvents {
  readonly #events: Collection<EventDocument>
  readonly #tokens: Collection<TokenDocument>
  readonly #timeoutMs: number

  private constructor(db: Db, timeoutMs: number) {
    this.#events = db.collection<EventDocument>('mail_events')
    this.#tokens = db.collection<TokenDocument>('webhook_tokens')
    this.#timeoutMs = timeoutMs
  }

  /** The store over `db`, once its indexes exist. */
  static async open(db: Db, { timeoutMs, retentionDays }: MongoMailEventsOptions) {
    const eventIndexes: IndexDescription[] = [
      { key: { messageId: 1, at: 1 }, name: 'messageId_at' },
      { key: { at: 1 }, name: 'at_ttl', expireAfterSeconds: retentionDays * 86_400 },
    ]
    const tokenIndexes: IndexDescription[] = [
      { key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 },
    ]
    await ensureIndexes(db, 'mail_events', eventIndexes, timeoutMs)
    await ensureIndexes(db, 'webhook_tokens', tokenIndexes, timeoutMs)
    return new MongoMailEvents(db, timeoutMs)
  }

  takeToken(token: string, eventId: string, expiresAt: number): Promise<string> {
    return this.#within(async () => {
      const document = { _id: token, eventId, expiresAt: new Date(expiresAt) }
      for (let attempt = 1; attempt <= 3; attempt++) {
        if (await insertOnce(this.#tokens, document)) return eventId
        const expired = { _id: token, expiresAt: { $lte: new Date() } }
        if ((await this.#tokens.replaceOne(expired, document)).matchedCount > 0) return eventId
        const held = await this.#tokens.findOne({ _id: token })
        if (held) return held.eventId
      }
      throw new Error('the token was taken and freed 3 times during one take')
    })
  }

  file(messageId: string, { id, at, ...event }: MailEvent): Promise<boolean> {
    return this.#within(() =>
      insertOnce(this.#events, { _id: id, messageId, at: new Date(at), ...event }),
    )
  }

  eventsOf(messageIds: readonly string[]): Promise<Map<string, MailEvent[]>> {
    return this.#within(async (signal) => {
      const found = new Map<string, MailEvent[]>()
      if (messageIds.length === 0) return found
      const cursor = this.#events.find({ messageId: { $in: [...new Set(messageIds)] } }, { signal })
      for await (const { _id, messageId, at, ...event } of cursor) {
        const shown = { id: _id, ...event, at: at.toISOString() } as MailEvent
        found.set(messageId, [...(found.get(messageId) ?? []), shown])
      }
      for (const [messageId, events] of found) found.set(messageId, inOrder(events))
      return found
    })
  }

  /** Removes the old events and the expired tokens, as the TTL indexes would. */
  prune(olderThan: Date): Promise<number> {
    return this.#within(async () => {
      await this.#tokens.deleteMany({ expiresAt: { $lte: new Date() } })
      return (await this.#events.deleteMany({ at: { $lt: olderThan } })).deletedCount
    })
  }

  async ping(): Promise<void> {
    await this.#within((signal) => this.#events.findOne({}, { projection: { _id: 1 }, signal }))
  }

  async close(): Promise<void> {}

  #within<T>(operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return withinDeadline(this.#timeoutMs, operation)
  }
}

/** Inserts `document`; false when its `_id` is there already. */
async function insertOnce<T extends { _id: string }>(
  collection: Collection<T>,
  document: OptionalUnlessRequiredId<T>,
): Promise<boolean> {
  try {
    await collection.insertOne(document)
    return true
  } catch (error) {
    if (isDuplicateKey(error)) return false
    throw error
  }
}
