import type { SortableIdSequence } from '@movies-and-mail/http-kit'
import { firstIdAt, type ListOptions, type MailLog, recordIds, type Stored } from './mail-log.js'

export type MemoryMailLogOptions = {
  /** The most records kept; past it the oldest is dropped, so memory stays flat. */
  maxRecords?: number
  /** Where new `_id`s come from; tests pass their own to make records of another time. */
  ids?: SortableIdSequence
}

/**
 * Keeps records in memory only, for tests (no entry keeps state where a restart would lose it),
 * no more than `maxRecords` (10,000) of them. The records
 * are kept in `_id` order, so a page is a binary search and a slice (O(log n + limit)), and a
 * prune one splice at the front.
 * @example const mailLog = new MemoryMailLog<MailLogEntry>()
 */
export class MemoryMailLog<T extends object> implements MailLog<T> {
  /** Oldest first: each new id sorts after every id its sequence made before. */
  #records: Stored<T>[] = []
  readonly #maxRecords: number
  readonly #ids: SortableIdSequence

  constructor({ maxRecords = 10_000, ids = recordIds }: MemoryMailLogOptions = {}) {
    this.#maxRecords = maxRecords
    this.#ids = ids
  }

  async insert(record: T): Promise<Stored<T>> {
    const stored = { ...structuredClone(record), _id: this.#ids.next() }
    this.#records.push(stored)
    if (this.#records.length > this.#maxRecords) this.#records.shift()
    return structuredClone(stored)
  }

  async list({ limit, before }: ListOptions): Promise<Stored<T>[]> {
    const end = before === undefined ? this.#records.length : this.#firstAtOrAfter(before)
    return structuredClone(this.#records.slice(Math.max(0, end - limit), end).reverse())
  }

  async prune(olderThan: Date): Promise<number> {
    return this.#records.splice(0, this.#firstAtOrAfter(firstIdAt(olderThan))).length
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  /** The index of the first record whose `_id` is not lower than `id`. */
  #firstAtOrAfter(id: string): number {
    let low = 0
    let high = this.#records.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((this.#records[middle] as Stored<T>)._id < id) low = middle + 1
      else high = middle
    }
    return low
  }
}
