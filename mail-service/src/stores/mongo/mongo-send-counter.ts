import { isDuplicateKey, withinDeadline } from '@movies-and-mail/mongo-kit'
import type { Collection, Db, Document, IndexDescription } from 'mongodb'
import type { Admission, Bucket, SendCounter } from '../../ports/send-counter.js'
import { gcraTake, intervalOf } from '../../rate-limits/gcra.js'
import { ensureIndexes } from './mongo-indexes.js'

/** A bucket as the collection keeps it: its TAT, and when the database may forget it. */
type BucketDocument = { _id: string; tat: number; expiresAt: Date }

/** The database forgets a bucket once it is empty again (its TTL monitor runs each minute). */
const indexes: IndexDescription[] = [
  { key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 },
]

export type MongoSendCounterOptions = {
  /** How long each operation waits for the database. */
  timeoutMs: number
  collectionName?: string
}

/**
 * Sends counted in a MongoDB collection (`send_counts`), shared by every process that uses the
 * database: one document a bucket holding its TAT (`gcra.ts`). A send is counted in a bucket by
 * one `findOneAndUpdate` whose update is an aggregation pipeline: the server reads the TAT,
 * decides by the GCRA rule and writes the new TAT in one atomic step, so simultaneous sends from
 * any number of processes are counted one after another. The update answers the TAT it found,
 * and `gcraTake` on that TAT says what the server decided. Several buckets: each is taken in
 * turn, and those taken are given back when a later one refuses (meanwhile they may refuse a
 * send they would have let through, never the other way). A bucket expires when it is empty
 * again, measured on the database's clock, so a process's clock sets no expiry.
 */
export class MongoSendCounter implements SendCounter {
  readonly #buckets: Collection<BucketDocument>
  readonly #timeoutMs: number

  private constructor(buckets: Collection<BucketDocument>, timeoutMs: number) {
    this.#buckets = buckets
    this.#timeoutMs = timeoutMs
  }

  /** The counter over `db`, once its TTL index exists. */
  static async open(
    db: Db,
    { timeoutMs, collectionName = 'send_counts' }: MongoSendCounterOptions,
  ): Promise<MongoSendCounter> {
    await ensureIndexes(db, collectionName, indexes, timeoutMs)
    return new MongoSendCounter(db.collection<BucketDocument>(collectionName), timeoutMs)
  }

  async take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    const taken: Bucket[] = []
    let refused: Admission | undefined
    try {
      for (const bucket of buckets) {
        const found = await this.#within(() => this.#takeOne(bucket, now))
        const decision = gcraTake(found, bucket.limit, now)
        if (!decision.admitted) {
          refused = { admitted: false, bucket: bucket.key, retryAfterMs: decision.retryAfterMs }
          break
        }
        taken.push(bucket)
      }
    } catch (error) {
      // None is counted when one cannot be: what was taken is given back, where it can be.
      await this.giveBack(taken, now, now).catch(() => {})
      throw error
    }
    if (!refused) return { admitted: true }
    await this.giveBack(taken, now, now)
    return refused
  }

  /** One atomic update a bucket, as `gcraGiveBack` decides: none once the send's interval passed. */
  async giveBack(buckets: readonly Bucket[], takenAt: number, now: number): Promise<void> {
    for (const bucket of buckets) {
      if (now >= takenAt + intervalOf(bucket.limit)) continue
      const tat = { $subtract: ['$tat', intervalOf(bucket.limit)] }
      await this.#within(() => this.#buckets.updateOne({ _id: bucket.key }, withTat(tat, now)))
    }
  }

  async ping(): Promise<void> {
    await withinDeadline(this.#timeoutMs, (signal) =>
      this.#buckets.findOne({}, { projection: { _id: 1 }, signal }),
    )
  }

  async prune(): Promise<number> {
    // The TTL index removes buckets once they are empty; `take` reads a TAT in the past as empty.
    return 0
  }

  /** Counts one send in `bucket` if it fits at `now`; the TAT the server found (undefined: none). */
  async #takeOne(bucket: Bucket, now: number): Promise<number | undefined> {
    const update = takePipeline(bucket, now)
    const options = { upsert: true, returnDocument: 'before', projection: { tat: 1 } } as const
    try {
      return (await this.#buckets.findOneAndUpdate({ _id: bucket.key }, update, options))?.tat
    } catch (error) {
      // Two first sends to a bucket both upserting it: the server lets one insert, and the
      // other, refused, is counted by the update it is then.
      if (!isDuplicateKey(error)) throw error
      return (await this.#buckets.findOneAndUpdate({ _id: bucket.key }, update, options))?.tat
    }
  }

  #within<T>(operation: () => Promise<T>): Promise<T> {
    return withinDeadline(this.#timeoutMs, operation)
  }
}

/**
 * The update that takes one send in `bucket` at `now`, as `gcraTake` decides it: from the later
 * of the TAT and now, a send fits while that is at most the tolerance ahead of now; then the TAT
 * moves one interval on, otherwise it stays.
 */
export function takePipeline({ limit }: Bucket, now: number): Document[] {
  const interval = intervalOf(limit)
  const tolerance = limit.windowMs - interval
  const from = { $max: [{ $ifNull: ['$tat', now] }, now] }
  const fits = { $lte: [{ $subtract: [{ $subtract: [from, now] }, tolerance] }, 0] }
  return withTat({ $cond: [fits, { $add: [from, interval] }, '$tat'] }, now)
}

/** A pipeline that sets the TAT, then its expiry: as far after the database's now as it is after `now`. */
function withTat(tat: Document, now: number): Document[] {
  return [
    { $set: { tat } },
    { $set: { expiresAt: { $add: ['$$NOW', { $subtract: ['$tat', now] }] } } },
  ]
}
