import { DurableObject } from 'cloudflare:workers'
import type { DurableObjectState } from '@cloudflare/workers-types'
import type {
  IdempotencyRecord,
  KeptResponse,
  UnansweredKey,
} from '../../ports/idempotency-store.js'
import type { MailEvent } from '../../ports/mail-events.js'
import type { Admission, Bucket } from '../../ports/send-counter.js'
import { IdempotencyKeysTable } from './idempotency-keys-table.js'
import { completeLeftKeysAtStart } from './left-keys-at-start.js'
import { MailEventsTable, type MessageEvents } from './mail-events-table.js'
import { type LogName, MailRecordsTable, type StoredRow } from './mail-records-table.js'
import { SendCountsTable } from './send-counts-table.js'

/**
 * The mail service's state on the Workers runtime, in one Durable Object with SQLite storage:
 * the idempotency keys, the send counts, the logs (mail log, outbox) and Mailgun's events. Every isolate calls the
 * same object (`mailStateName`), which runs one call at a time, each in one storage transaction,
 * and answers once the write is durable: a key is taken once, a limit counted once, whatever
 * isolate asks, and a restart forgets nothing. At its start, before any call, it completes the
 * keys left without an answer whose send its mail log holds (`left-keys-at-start.ts`). Its methods are called over Workers RPC by the
 * adapters in this folder; each is synchronous, so no other call runs in the middle of one.
 */
export class MailStateObject extends DurableObject<unknown> {
  readonly #storage: DurableObjectState['storage']
  readonly #keys: IdempotencyKeysTable
  readonly #counts: SendCountsTable
  readonly #records: MailRecordsTable
  readonly #events: MailEventsTable

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env)
    this.#storage = ctx.storage
    this.#keys = new IdempotencyKeysTable(ctx.storage.sql)
    this.#counts = new SendCountsTable(ctx.storage.sql)
    this.#records = new MailRecordsTable(ctx.storage.sql)
    this.#events = new MailEventsTable(ctx.storage.sql)
    const tables = { keys: this.#keys, records: this.#records }
    const inOneTransaction = <T>(work: () => T) => this.#inOneTransaction(work)
    const giveUpMs = (env as { MAIL_GIVE_UP_MS?: unknown } | undefined)?.MAIL_GIVE_UP_MS
    void ctx.blockConcurrencyWhile(() =>
      completeLeftKeysAtStart({ ...tables, inOneTransaction }, giveUpMs),
    )
  }

  takeKey(key: string, record: IdempotencyRecord): IdempotencyRecord | null {
    return this.#inOneTransaction(() => this.#keys.take(key, record))
  }

  completeKey(key: string, answer: KeptResponse, takenAt: number): void {
    this.#inOneTransaction(() => this.#keys.complete(key, answer, takenAt))
  }

  releaseKey(key: string): void {
    this.#inOneTransaction(() => this.#keys.release(key))
  }

  unansweredKeys(now: number, limit: number): UnansweredKey[] {
    return this.#inOneTransaction(() => this.#keys.unanswered(now, limit))
  }

  pruneKeys(now: number): number {
    return this.#inOneTransaction(() => this.#keys.prune(now))
  }

  takeSend(buckets: Bucket[], now: number): Admission {
    return this.#inOneTransaction(() => this.#counts.take(buckets, now))
  }

  giveBackSend(buckets: Bucket[], takenAt: number, now: number): void {
    this.#inOneTransaction(() => this.#counts.giveBack(buckets, takenAt, now))
  }

  pruneSends(now: number): number {
    return this.#inOneTransaction(() => this.#counts.prune(now))
  }

  // The owner comes last in both: a call of an isolate still on the release before, whose
  // records had no owner, means what it meant then (a record without one; every record).
  insertRecord(
    log: LogName,
    proposedId: string,
    json: string,
    keepFrom?: string,
    owner?: string,
  ): string {
    const record = { proposedId, json, keepFrom, owner }
    return this.#inOneTransaction(() => this.#records.insert(log, record))
  }

  listRecords(log: LogName, limit: number, before?: string, owner?: string): StoredRow[] {
    return this.#inOneTransaction(() => this.#records.list(log, { limit, before, owner }))
  }

  pruneRecords(log: LogName, firstKept: string): number {
    return this.#inOneTransaction(() => this.#records.prune(log, firstKept))
  }

  takeToken(token: string, eventId: string, expiresAt: number, now: number): string {
    return this.#inOneTransaction(() => this.#events.takeToken(token, eventId, expiresAt, now))
  }

  fileEvent(messageId: string, event: MailEvent): boolean {
    return this.#inOneTransaction(() => this.#events.file(messageId, event))
  }

  eventsOf(messageIds: string[]): MessageEvents[] {
    return this.#inOneTransaction(() => this.#events.eventsOf(messageIds))
  }

  pruneEvents(olderThan: string, now: number): number {
    return this.#inOneTransaction(() => this.#events.prune(olderThan, now))
  }

  /** Answers once the storage does. */
  ping(): void {
    this.#storage.sql.exec('SELECT 1')
  }

  /** One transaction: all of the work is stored, or none of it when it throws. */
  #inOneTransaction<T>(work: () => T): T {
    return this.#storage.transactionSync(work)
  }
}
