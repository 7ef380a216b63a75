import { isDuplicateKey, withinDeadline } from '@movies-and-mail/mongo-kit'
import type { Collection, Db, IndexDescription } from 'mongodb'
import type {
  IdempotencyRecord,
  IdempotencyStore,
  KeptResponse,
  UnansweredKey,
} from '../../ports/idempotency-store.js'
import { ensureIndexes } from './mongo-indexes.js'

/** A key as the collection keeps it: the key is `_id`, the expiry a date for the TTL index. */
type KeyDocument = {
  _id: string
  fingerprint: string
  takenAt: number
  expiresAt: Date
  answer?: KeptResponse
  owner?: string
}

/** The database forgets a key once its `expiresAt` has passed (its TTL monitor runs each minute). */
const indexes: IndexDescription[] = [
  { key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 },
]

/** A take that finds the key freed between its steps tries again, this many times in all. */
const attempts = 3

export type MongoIdempotencyStoreOptions = {
  /** How long each operation waits for the database. */
  timeoutMs: number
  collectionName?: string
}

/**
 * Keys in a MongoDB collection (`idempotency_keys`), shared by every process that uses the
 * database. The key is the document's `_id`, so the unique index every collection has decides
 * who takes it: of two inserts of one key, the server refuses the second (E11000), whichever
 * process sent it. A key held by a record that expired is taken over by one update whose filter
 * says so, so two processes cannot both take it over either; a key left without an answer (its
 * process ended mid-request) stays taken until then. Complete touches the key only while it
 * holds the take it names (its `takenAt`, no answer), release only this process's take.
 * Each operation settles within `timeoutMs`, with StoreUnavailableError when the database does
 * not answer.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  readonly #keys: Collection<KeyDocument>
  readonly #timeoutMs: number
  /** When this process took each key it holds, to touch only its own take. */
  readonly #taken = new Map<string, number>()

  private constructor(keys: Collection<KeyDocument>, options: MongoIdempotencyStoreOptions) {
    this.#keys = keys
    this.#timeoutMs = options.timeoutMs
  }

  /** The store over `db`, once its TTL index exists. */
  static async open(db: Db, options: MongoIdempotencyStoreOptions): Promise<MongoIdempotencyStore> {
    const name = options.collectionName ?? 'idempotency_keys'
    await ensureIndexes(db, name, indexes, options.timeoutMs)
    return new MongoIdempotencyStore(db.collection<KeyDocument>(name), options)
  }

  take(key: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    return this.#within(async () => {
      const document = toDocument(key, record)
      for (let attempt = 1; attempt <= attempts; attempt++) {
        if (await this.#insert(document)) return this.#took(key, record)
        const over = await this.#keys.replaceOne(this.#free(key, record.takenAt), document)
        if (over.matchedCount > 0) return this.#took(key, record)
        const held = await this.#keys.findOne({ _id: key })
        if (held) return toRecord(held)
      }
      throw new Error(`the key was taken and freed ${attempts} times during one take`)
    })
  }

  complete(key: string, answer: KeptResponse, takenAt: number): Promise<void> {
    if (this.#taken.get(key) === takenAt) this.#taken.delete(key)
    return this.#within(async () => {
      await this.#keys.updateOne(mine(key, takenAt), { $set: { answer } })
    })
  }

  release(key: string): Promise<void> {
    const takenAt = this.#taken.get(key)
    this.#taken.delete(key)
    if (takenAt === undefined) return Promise.resolve()
    return this.#within(async () => {
      await this.#keys.deleteOne(mine(key, takenAt))
    })
  }

  unanswered(now: number, limit: number): Promise<UnansweredKey[]> {
    return this.#within(async (signal) => {
      const filter = { answer: { $exists: false }, expiresAt: { $gt: new Date(now) } }
      // This process's own takes are in progress: read past them, then leave them out.
      const documents = await this.#keys
        .find(filter, { sort: { takenAt: 1 }, limit: limit + this.#taken.size, signal })
        .toArray()
      return documents
        .filter((document) => !this.#taken.has(document._id))
        .slice(0, limit)
        .map((document) => ({ key: document._id, record: toRecord(document) }))
    })
  }

  async ping(): Promise<void> {
    await withinDeadline(this.#timeoutMs, (signal) =>
      this.#keys.findOne({}, { projection: { _id: 1 }, signal }),
    )
  }

  async prune(): Promise<number> {
    // The TTL index removes expired keys; `take` treats one the monitor has not reached as free.
    return 0
  }

  /** Whether the insert took the key; false when a document holds it already. */
  async #insert(document: KeyDocument): Promise<boolean> {
    try {
      await this.#keys.insertOne(document)
      return true
    } catch (error) {
      if (isDuplicateKey(error)) return false
      throw error
    }
  }

  /** The key, when the record that holds it has expired at `now`. */
  #free(key: string, now: number) {
    return { _id: key, expiresAt: { $lte: new Date(now) } }
  }

  #took(key: string, { takenAt }: IdempotencyRecord): null {
    this.#taken.set(key, takenAt)
    return null
  }

  #within<T>(operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return withinDeadline(this.#timeoutMs, operation)
  }
}

/** The key while it holds the take of `takenAt`, still without an answer. */
function mine(key: string, takenAt: number) {
  return { _id: key, takenAt, answer: { $exists: false } }
}

function toDocument(
  key: string,
  { fingerprint, takenAt, expiresAt, owner }: IdempotencyRecord,
): KeyDocument {
  return { _id: key, fingerprint, takenAt, expiresAt: new Date(expiresAt), ...(owner && { owner }) }
}

function toRecord({
  fingerprint,
  takenAt,
  expiresAt,
  answer,
  owner,
}: KeyDocument): IdempotencyRecord {
  const record = { fingerprint, takenAt, expiresAt: expiresAt.getTime(), ...(owner && { owner }) }
  return answer ? { ...record, answer: { status: answer.status, body: answer.body } } : record
}
