import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { SortableIdSequence } from '@movies-and-mail/http-kit'
import type { Database } from 'lmdb'
import {
  idRangesBefore,
  type ListOptions,
  type MailLog,
  recordIds,
  type Stored,
} from './mail-log.js'

export type EmbeddedMailLogOptions = {
  /** Where new `_id`s come from; tests pass their own to make records of another time. */
  ids?: SortableIdSequence
  /** The most records one commit of `prune` removes, so no transaction grows without bound. */
  pruneBatch?: number
}

/**
 * A log kept in a named database of the service's embedded store (LMDB, see
 * `@movies-and-mail/embedded-store`): one record a key, the key its `_id`, which sorts by time.
 * A page is read straight from the database, backwards from its end or from the cursor, and
 * nothing is held in memory per record; `prune` removes the key range of the old records.
 * An insert resolves once its transaction is committed and synced; one that cannot be stored
 * rejects (StoreFullError, StoreUnavailableError) and leaves nothing behind.
 * The store is shared by the service's logs: its owner closes it, after closing the logs.
 * @example const mailLog = new EmbeddedMailLog<MailLogEntry>(env, 'maillog')
 */
export class EmbeddedMailLog<T extends object> implements MailLog<T> {
  readonly #env: EmbeddedEnv
  readonly #records: Database<string, string>
  readonly #ids: SortableIdSequence
  readonly #pruneBatch: number
  readonly #inFlight = new Set<Promise<void>>()
  /** Prunes run one after another, so two never count the same removed record. */
  #pruning: Promise<unknown> = Promise.resolve()
  /** The room the last write asked for, when it failed; undefined while writes succeed. */
  #closed = false

  constructor(
    env: EmbeddedEnv,
    name: string,
    { ids = recordIds, pruneBatch = 10_000 }: EmbeddedMailLogOptions = {},
  ) {
    this.#env = env
    this.#records = env.database<string>(name, 'string')
    this.#ids = ids
    this.#pruneBatch = pruneBatch
    const newest = this.#newestKey()
    if (newest !== undefined) ids.observe(newest)
  }

  async insert(record: T): Promise<Stored<T>> {
    this.#assertOpen()
    const stored = { ...record, _id: this.#ids.next() } as Stored<T>
    const json = JSON.stringify(stored)
    await this.#commit(Buffer.byteLength(json), () => this.#records.put(stored._id, json))
    return stored
  }

  async list({ limit, before }: ListOptions): Promise<Stored<T>[]> {
    this.#assertOpen()
    const range = before === undefined ? {} : { start: before, exclusiveStart: true }
    const records: Stored<T>[] = []
    for (const { value } of this.#records.getRange({ ...range, reverse: true, limit })) {
      records.push(JSON.parse(value) as Stored<T>)
    }
    return records
  }

  /**
   * Removes the keys from the start of the database up to the first id of `olderThan`, at most
   * `pruneBatch` of them a commit; a failed commit rejects and keeps what it would have removed.
   */
  async prune(olderThan: Date): Promise<number> {
    this.#assertOpen()
    const pruning = this.#pruning.then(async () => {
      let removed = 0
      for (const [start, end] of idRangesBefore(olderThan)) {
        removed += await this.#removeRange(start, end)
      }
      return removed
    })
    this.#pruning = pruning.catch(() => {})
    return pruning
  }

  /** Resolves while the store reads and the environment's commits succeed (`EmbeddedEnv.probe`). */
  async ping(): Promise<void> {
    this.#assertOpen()
    this.#newestKey()
    await this.#env.probe()
  }

  /** Refuses further calls, and resolves once the writes in flight are done; the store stays open. */
  async close(): Promise<void> {
    this.#closed = true
    await Promise.allSettled(this.#inFlight)
  }

  async #removeRange(start: string | undefined, end: string): Promise<number> {
    let removed = 0
    let after: { start: string; exclusiveStart?: true } | undefined =
      start === undefined ? undefined : { start }
    // A close stops the prune between commits; the records left go with a later prune.
    while (!this.#closed) {
      const keys = [...this.#records.getKeys({ ...after, end, limit: this.#pruneBatch })]
      const last = keys.at(-1)
      if (last === undefined) return removed
      // A removal needs little new room (the pages it empties are reused within the commit, the
      // free list takes a few bytes a page): the bytes of the keys are a generous bound.
      const bytes = keys.reduce((sum, key) => sum + key.length, 0)
      await this.#commit(bytes, () => {
        for (const key of keys) this.#records.remove(key)
      })
      removed += keys.length
      if (keys.length < this.#pruneBatch) return removed
      after = { start: last, exclusiveStart: true }
    }
    return removed
  }

  async #commit(bytes: number, writes: () => void): Promise<void> {
    const done = this.#env.commit(bytes, writes)
    this.#inFlight.add(done)
    try {
      await done
    } finally {
      this.#inFlight.delete(done)
    }
  }

  /** The newest record's key: one read, where a count would walk every record. */
  #newestKey(): string | undefined {
    for (const key of this.#records.getKeys({ reverse: true, limit: 1 })) return key
    return undefined
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the embedded mail log is closed')
  }
}
