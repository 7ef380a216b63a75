/** What the service logs after each successful send (the specification's maillog record). */
export type MailLogEntry = {
  email: string
  name: string
  /** The provider's success answer, e.g. `{ id, message }`. */
  output: Record<string, unknown>
}

/** A record as stored: the fields given plus the identifier the store assigned. */
export type Stored<T> = T & { _id: string }

/**
 * An append-only log of records, read newest first. The mail log uses it for sends and the
 * outbox for captured messages.
 */
export interface MailLog<T extends object = MailLogEntry> {
  /**
   * Appends a record; resolves once the store has accepted it. Rejects when it cannot be
   * stored, with an error named `NoSpaceError` when the disk is full (see `isNoSpace`).
   */
  insert(record: T): Promise<Stored<T>>
  /** The newest `limit` records, newest first. */
  list(options: { limit: number }): Promise<Stored<T>[]>
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>
  close(): Promise<void>
}

let lastMillis = 0
let sequence = 0

/**
 * Whether a store refused a write for lack of space. By name, not class: the class belongs to
 * the embedded engine, which the Worker bundle must not load.
 */
export function isNoSpace(error: unknown): boolean {
  return error instanceof Error && error.name === 'NoSpaceError'
}

/**
 * A 24-character lowercase hex identifier that sorts by creation time: 12 digits of
 * milliseconds, a 4-digit sequence for records made in the same millisecond, 8 random digits.
 * Both stores sort on it, so "newest first" needs no extra field.
 */
export function newRecordId(now = Date.now()): string {
  if (now > lastMillis) {
    lastMillis = now
    sequence = 0
  } else {
    sequence = (sequence + 1) % 0x10000
  }
  const random = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0
  return (
    lastMillis.toString(16).padStart(12, '0') +
    sequence.toString(16).padStart(4, '0') +
    random.toString(16).padStart(8, '0')
  )
}

/**
 * Makes later ids sort after `id`, one this or an earlier process made: a clock set back
 * between runs must not put new records behind old ones.
 */
export function continueAfterRecordId(id: string): void {
  if (!/^[0-9a-f]{24}$/.test(id)) return
  const millis = Number.parseInt(id.slice(0, 12), 16)
  const idSequence = Number.parseInt(id.slice(12, 16), 16)
  if (millis < lastMillis || (millis === lastMillis && idSequence <= sequence)) return
  lastMillis = millis
  sequence = idSequence
}
