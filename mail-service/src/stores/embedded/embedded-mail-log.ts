import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { SortableIdSequence } from '@movies-and-mail/store-kit'
import type { Database } from 'lmdb'
import {
  idRangesBefore,
  type ListOptions,
  type MailLog,
  recordIds,
  type Stored,
} from '../../ports/mail-log.js'
import { EmbeddedOwnerIndex } from './embedded-owner-index.js'

export type EmbeddedMailLogOptions = {
  /** Where new `_id`s come from; tests pass their own to make records of another time. */
  ids?: SortableIdSequence
  /** The most records one commit of `prune` removes, so no transaction grows without bound. */
  pruneBatch?: number
}

/**
 * A log kept in a named database of the service's embedded store (LMDB, see
 * `@movies-and-mail/embedded-store`): one record a key, the key its `_id`, which sorts by time,
 * its value the record as JSON with its owner, if any. A page is read straight from the
 * database, backwards from its end or from the cursor, and nothing is held in memory per record;
 * a page of one owner reads `limit` keys of the owners' index (`EmbeddedOwnerIndex`), then the
 * `limit` records they name, one lookup each. `prune` removes the key range of the old records
 * and their index entries.
 * An insert resolves once its transaction is committed and synced; one that cannot be stored
 * rejects (StoreFullError, StoreUnavailableError) and leaves nothing behind.
 * The store is shared by the service's logs: its owner closes it, after closing the logs.
 * @example const mailLog = new EmbeddedMailLog<MailLogEntry>(env, 'maillog')
 */
export class EmbeddedMailLog<T extends object> implements MailLog<T> {
  readonly #env: EmbeddedEnv
  readonly #records: Database<string, string>
  readonly #owners: EmbeddedOwnerIndex
  readonly #ids: SortableIdSequence
  readonly #pruneBatch: number
  readonly #inFlight = new Set<Promise<void>>()
  /** Prunes run one after another, so two never count the same removed record. */
  #pruning: Promise<unknown> = Promise.resolve()
  /** Set by `close`: every later call is refused. */
  #closed = false

  constructor(
    env: EmbeddedEnv,
    name: string,
    { ids = recordIds, pruneBatch = 10_000 }: EmbeddedMailLogOptions = {},
  ) {
    this.#env = env
    this.#records = env.database<string>(name, 'string')
    this.#owners = new EmbeddedOwnerIndex(env, name)
    this.#ids = ids
    this.#pruneBatch = pruneBatch
    const newest = this.#newestKey()
    if (newest !== undefined) ids.observe(newest)
  }

  async insert(record: T, owner?: string): Promise<Stored<T>> {
    this.#assertOpen()
    const stored = { ...record, _id: this.#ids.next() } as Stored<T>
    const json = JSON.stringify(owner === undefined ? stored : { ...stored, owner })
    const indexBytes = owner === undefined ? 0 : this.#owners.key(owner, stored._id).length
    await this.#commit(Buffer.byteLength(json) + indexBytes, () => {
      this.#records.put(stored._id, json)
      if (owner !== undefined) this.#owners.add(owner, stored._id)
    })
    return stored
  }

  async list({ limit, before, owner }: ListOptions): Promise<Stored<T>[]> {
    this.#assertOpen()
    if (owner !== undefined) {
      return this.#owners.idsOf(owner, { limit, before }).flatMap((id) => {
        const value = this.#records.get(id)
        return value === undefined ? [] : [recordOf<T>(value).record]
      })
    }
    const range = before === undefined ? {} : { start: before, exclusiveStart: true }
    const records: Stored<T>[] = []
    for (const { value } of this.#records.getRange({ ...range, reverse: true, limit })) {
      records.push(recordOf<T>(value).record)
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
      const entries = [...this.#records.getRange({ ...after, end, limit: this.#pruneBatch })]
      const last = entries.at(-1)?.key
      if (last === undefined) return removed
      // Read before the commit, whose writes must not throw.
      const owned = entries.map(({ key, value }) => [key, recordOf(value).owner] as const)
      // A removal needs little new room (the pages it empties are reused within the commit, the
      // free list takes a few bytes a page): the bytes of the keys, the index's too, are a
      // generous bound.
      const bytes = entries.reduce((sum, { key }) => sum + 2 * key.length + 64, 0)
      await this.#commit(bytes, () => {
        for (const [key, owner] of owned) {
          this.#records.remove(key)
          if (owner !== undefined) this.#owners.remove(owner, key)
        }
      })
      removed += entries.length
      if (entries.length < this.#pruneBatch) return removed
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

/** A stored value: the record as it was given, with its `_id`, and its owner apart. */
function recordOf<T>(value: string): { record: Stored<T>; owner: string | undefined } {
  const { owner, ...record } = JSON.parse(value) as Stored<T> & { owner?: string }
  return { record: record as Stored<T>, owner }
}
