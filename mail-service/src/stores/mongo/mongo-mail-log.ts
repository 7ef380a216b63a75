import { insertInOrder, withinDeadline } from '@movies-and-mail/mongo-kit'
import type { SortableIdSequence } from '@movies-and-mail/store-kit'
import { type Collection, type Db, type Document, type IndexDescription, ObjectId } from 'mongodb'
import {
  firstIdAt,
  type ListOptions,
  type MailLog,
  recordIds,
  type Stored,
} from '../../ports/mail-log.js'
import { ensureIndexes } from './mongo-indexes.js'

const secondsPerDay = 86_400

export type MongoMailLogOptions = {
  /** The collection: `maillog` or `outbox`. */
  name: string
  /** How long each operation waits for the database. */
  timeoutMs: number
  /** Days the database keeps each record (a TTL index on `createdAt`). */
  retentionDays: number
  /** Where new `_id`s come from; tests pass their own to make records of another time. */
  ids?: SortableIdSequence
}

/** The index a page of one owner's records is read from. */
const ownerIndex = 'owner_id'

/**
 * Keeps records in a MongoDB collection, shared by every process that uses the database. The
 * record's `_id` (24 hex digits, sorted by time) is stored as the ObjectId it is shaped like,
 * so a page is a read of the `_id` index backwards, from the newest or from the cursor; a page
 * of one owner (the field `owner`) a read of the index `owner_id` (`{owner: 1, _id: -1}`), named
 * in the query's `hint`, so `limit` entries are read whatever the other owners hold. Each
 * record also carries `createdAt`, the time in its `_id`, which a TTL index removes
 * `retentionDays` after; `prune` removes the same records at once. Records are answered as they
 * were given, without `owner` and `createdAt`. Each operation settles within `timeoutMs`, with
 * StoreUnavailableError when the database does not answer.
 * @example const mailLog = await MongoMailLog.open<MailLogEntry>(db, { name: 'maillog', timeoutMs, retentionDays: 90 })
 */
export class MongoMailLog<T extends object> implements MailLog<T> {
  readonly #db: Db
  readonly #records: Collection<Document>
  readonly #timeoutMs: number
  readonly #ids: SortableIdSequence

  private constructor(db: Db, name: string, timeoutMs: number, ids: SortableIdSequence) {
    this.#db = db
    this.#records = db.collection(name)
    this.#timeoutMs = timeoutMs
    this.#ids = ids
  }

  /** The log in collection `name` of `db`, once its indexes (TTL, owners) exist. */
  static async open<T extends object>(
    db: Db,
    { name, timeoutMs, retentionDays, ids = recordIds }: MongoMailLogOptions,
  ): Promise<MongoMailLog<T>> {
    const expireAfterSeconds = retentionDays * secondsPerDay
    const indexes: IndexDescription[] = [
      { key: { createdAt: 1 }, name: 'createdAt_ttl', expireAfterSeconds },
      { key: { owner: 1, _id: -1 }, name: ownerIndex },
    ]
    await ensureIndexes(db, name, indexes, timeoutMs)
    return new MongoMailLog<T>(db, name, timeoutMs, ids)
  }

  /**
   * The record under an `_id` after every `_id` stored (`insertInOrder`): two processes never
   * make the same one, and newest first is creation order across them, clock skew included.
   */
  async insert(record: T, owner?: string): Promise<Stored<T>> {
    const _id = await this.#within(() =>
      insertInOrder(this.#records, this.#ids, (_id) => ({
        ...record,
        _id,
        createdAt: _id.getTimestamp(),
        ...(owner !== undefined && { owner }),
      })),
    )
    return { ...record, _id: String(_id) }
  }

  async list({ limit, before, owner }: ListOptions): Promise<Stored<T>[]> {
    const filter = {
      ...(owner !== undefined && { owner }),
      ...(before !== undefined && { _id: { $lt: new ObjectId(before) } }),
    }
    const hint = owner === undefined ? {} : { hint: ownerIndex }
    const documents = await this.#within((signal) =>
      this.#records.find(filter, { sort: { _id: -1 }, limit, ...hint, signal }).toArray(),
    )
    return documents.map(
      ({ _id, createdAt: _, owner: __, ...fields }) =>
        ({ ...fields, _id: String(_id) }) as Stored<T>,
    )
  }

  /** Removes the records whose `_id` holds a time before `olderThan`, as the TTL index would. */
  async prune(olderThan: Date): Promise<number> {
    const filter = { _id: { $lt: new ObjectId(firstIdAt(olderThan)) } }
    return (await this.#within(() => this.#records.deleteMany(filter))).deletedCount
  }

  async ping(): Promise<void> {
    await this.#within((signal) => this.#db.command({ ping: 1 }, { signal }))
  }

  /** Nothing of its own: the client belongs to whoever opened the log. */
  async close(): Promise<void> {}

  #within<R>(operation: (signal: AbortSignal) => Promise<R>): Promise<R> {
    return withinDeadline(this.#timeoutMs, operation)
  }
}
