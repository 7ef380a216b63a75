import { SortableIdSequence } from '@movies-and-mail/http-kit'

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

/**
 * Whether a store refused a write for lack of space. By name, not class: the class belongs to
 * the embedded engine, which the Worker bundle must not load.
 */
export function isNoSpace(error: unknown): boolean {
  return error instanceof Error && error.name === 'NoSpaceError'
}

/**
 * The ids of this process's records, sortable by creation time (see `SortableIdSequence`):
 * every store sorts on them, so "newest first" needs no extra field.
 */
export const recordIds = new SortableIdSequence()
