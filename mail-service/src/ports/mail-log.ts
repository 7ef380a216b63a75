import { SortableIdSequence } from '@movies-and-mail/store-kit'

/** What the service logs after each successful send (the specification's maillog record). */
export type MailLogEntry = {
  email: string
  name: string
  /** The provider's success answer, e.g. `{ id, message }`. */
  output: Record<string, unknown>
}

/** A record as stored: the fields given plus the identifier the store assigned. */
export type Stored<T> = T & { _id: string }

/** Which records `list` answers: a page of the log, newest first. */
export type ListOptions = {
  /** How many records at most. */
  limit: number
  /**
   * Only records whose `_id` is lower (older) than this one: the `_id` of the last record of
   * the previous page, so pages continue each other with no gap and no repeat.
   */
  before?: string | undefined
  /**
   * Only the records filed under this owner (the digest of the API key that made them, see
   * `keyDigest`). Unset: every record, those made before records had owners included, which is
   * an admin key's read. Every store filters in the database, and a page costs about the same
   * whoever reads it (see each store).
   */
  owner?: string | undefined
}

/**
 * An append-only log of records, read newest first. The mail log uses it for sends and the
 * outbox for captured messages. Each record may be filed under an owner, kept beside its fields
 * and never answered with them.
 */
export interface MailLog<T extends object = MailLogEntry> {
  /**
   * Appends a record, filed under `owner` when given (the digest of the API key that made it);
   * resolves once the store has accepted it. Rejects when it cannot be stored, with
   * StoreFullError when the disk is full.
   */
  insert(record: T, owner?: string): Promise<Stored<T>>
  /**
   * The newest `limit` records (of those before `before`, and of `owner`, when given), newest
   * first.
   */
  list(options: ListOptions): Promise<Stored<T>[]>
  /**
   * Removes the records created before `olderThan`, by the time in their `_id`; resolves with
   * how many it removed. A store that expires records by itself removes none here.
   */
  prune(olderThan: Date): Promise<number>
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>
  close(): Promise<void>
}

/**
 * The ids of this process's records, sortable by creation time (see `SortableIdSequence`):
 * every store sorts on them, so "newest first" needs no extra field.
 */
export const recordIds = new SortableIdSequence()

/**
 * The lowest `_id` a record created at `time` or later can have: every lower id holds a time
 * before `time` (its first 8 hex digits are its creation time in whole seconds).
 * @example firstIdAt(new Date('2026-01-01T00:00:00Z')) // '6955b9000000000000000000'
 */
export function firstIdAt(time: Date): string {
  if (Number.isNaN(time.getTime())) throw new RangeError('firstIdAt needs a valid date')
  const seconds = Math.min(Math.max(Math.ceil(time.getTime() / 1000), 0), 0xffffffff)
  return seconds.toString(16).padStart(8, '0') + '0'.repeat(16)
}

/**
 * The first id of the current format: its first 8 hex digits count seconds, and 0x386d4380 is
 * the year 2000. The releases before counted milliseconds in the first 12 hex digits, so every
 * id they made (before the year 2262) sorts below it.
 */
const currentFormatStart = `386d4380${'0'.repeat(16)}`

/**
 * The key ranges of the records made before `time`, as [start, end) pairs: those of the current
 * format, and those kept from the earlier releases, whose ids count milliseconds.
 */
export function idRangesBefore(time: Date): [start: string | undefined, end: string][] {
  const ms = Math.min(Math.max(Math.ceil(time.getTime()), 0), 0xffffffffffff)
  const earlierEnd = `${ms.toString(16).padStart(12, '0')}${'0'.repeat(12)}`
  return [
    [undefined, earlierEnd < currentFormatStart ? earlierEnd : currentFormatStart],
    [currentFormatStart, firstIdAt(time)],
  ]
}
