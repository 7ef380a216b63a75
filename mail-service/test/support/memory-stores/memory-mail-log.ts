import type { SortableIdSequence } from '@movies-and-mail/store-kit'
import {
  firstIdAt,
  type ListOptions,
  type MailLog,
  recordIds,
  type Stored,
} from '../../../src/ports/mail-log.js'

export type MemoryMailLogOptions = {
  /** The most records kept; past it the oldest is dropped, so memory stays flat. */
  maxRecords?: number
  /** Where new `_id`s come from; tests pass their own to make records of another time. */
  ids?: SortableIdSequence
}

type Kept<T> = { record: Stored<T>; owner: string | undefined }

/**
 * Keeps records in memory only, for tests (no entry keeps state where a restart would lose it),
 * no more than `maxRecords` (10,000) of them. The records are kept in `_id` order, all of them
 * and each owner's apart, so a page is a binary search and a slice (O(log n + limit)) of the
 * list it reads, and a prune one splice at the front of each.
 * @example const mailLog = new MemoryMailLog<MailLogEntry>()
 */
export class MemoryMailLog<T extends object> implements MailLog<T> {
  /** Oldest first: each new id sorts after every id its sequence made before. */
  #records: Kept<T>[] = []
  readonly #byOwner = new Map<string, Kept<T>[]>()
  readonly #maxRecords: number
  readonly #ids: SortableIdSequence

  constructor({ maxRecords = 10_000, ids = recordIds }: MemoryMailLogOptions = {}) {
    this.#maxRecords = maxRecords
    this.#ids = ids
  }

  async insert(record: T, owner?: string): Promise<Stored<T>> {
    const kept = { record: { ...structuredClone(record), _id: this.#ids.next() }, owner }
    this.#records.push(kept)
    if (owner !== undefined) {
      const owned = this.#byOwner.get(owner) ?? []
      owned.push(kept)
      this.#byOwner.set(owner, owned)
    }
    if (this.#records.length > this.#maxRecords) {
      const oldest = this.#records.shift()
      if (oldest?.owner !== undefined) this.#ofOwner(oldest.owner).shift()
    }
    return structuredClone(kept.record)
  }

  async list({ limit, before, owner }: ListOptions): Promise<Stored<T>[]> {
    const records = owner === undefined ? this.#records : this.#ofOwner(owner)
    const end = before === undefined ? records.length : firstAtOrAfter(records, before)
    const page = records.slice(Math.max(0, end - limit), end).reverse()
    return structuredClone(page.map((kept) => kept.record))
  }

  async prune(olderThan: Date): Promise<number> {
    const firstKept = firstIdAt(olderThan)
    for (const [owner, records] of this.#byOwner) {
      records.splice(0, firstAtOrAfter(records, firstKept))
      if (records.length === 0) this.#byOwner.delete(owner)
    }
    return this.#records.splice(0, firstAtOrAfter(this.#records, firstKept)).length
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  #ofOwner(owner: string): Kept<T>[] {
    return this.#byOwner.get(owner) ?? []
  }
}

/** The index of the first record whose `_id` is not lower than `id`. */
function firstAtOrAfter<T>(records: Kept<T>[], id: string): number {
  let low = 0
  let high = records.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((records[middle] as Kept<T>).record._id < id) low = middle + 1
    else high = middle
  }
  return low
}
