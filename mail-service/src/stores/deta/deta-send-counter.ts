import { Deta } from 'deta'
import { type Admission, admit, type Bucket, type SendCounter } from '../../ports/send-counter.js'
import { gcraGiveBack } from '../../rate-limits/gcra.js'

type DetaBase = ReturnType<ReturnType<typeof Deta>['Base']>
/** A bucket as the Base keeps it: its TAT, and the Base forgets it once it is empty again. */
type StoredBucket = { key: string; tat: number }

/**
 * Sends counted in a Deta Base (`sends`), shared by every instance that uses it: one item per
 * bucket holding its TAT (`gcra.ts`), which the Base forgets once the bucket is empty again. One
 * instance counts one send at a time; two instances counting the last room of a bucket at the
 * same moment may both take it, as a Base has no transactions.
 */
export class DetaSendCounter implements SendCounter {
  readonly #base: DetaBase
  /** This instance counts one send at a time, so its own requests never share a last slot. */
  #queue: Promise<unknown> = Promise.resolve()

  constructor({
    projectKey,
    host,
    baseName = 'sends',
  }: { projectKey: string; host: string; baseName?: string }) {
    this.#base = Deta(projectKey).Base(baseName, host)
  }

  take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    return this.#inTurn(async () => {
      const stored = new Map<Bucket, number | undefined>()
      for (const bucket of buckets) stored.set(bucket, await this.#tatOf(bucket, now))
      const { admission, tats } = admit(buckets, (bucket) => stored.get(bucket), now)
      for (const [bucket, tat] of tats) await this.#put(bucket, tat, now)
      return admission
    })
  }

  giveBack(buckets: readonly Bucket[], takenAt: number, now: number): Promise<void> {
    return this.#inTurn(async () => {
      for (const bucket of buckets) {
        const tat = gcraGiveBack(await this.#tatOf(bucket, now), bucket.limit, takenAt, now)
        if (tat === undefined) await this.#base.delete(bucket.key)
        else await this.#put(bucket, tat, now)
      }
    })
  }

  async ping(): Promise<void> {
    await this.#base.fetch([], { limit: 1 })
  }

  async prune(): Promise<number> {
    // Each bucket expires once it is empty: the Base forgets it by itself.
    return 0
  }

  async #tatOf(bucket: Bucket, now: number): Promise<number | undefined> {
    const tat = (await this.#base.get(bucket.key))?.tat
    // An item may outlive its TAT by up to a second: past it, the bucket is empty.
    return typeof tat === 'number' && tat > now ? tat : undefined
  }

  /** Keeps a bucket's TAT, to expire when the bucket is empty again: `tat` is `now`'s clock. */
  async #put(bucket: Bucket, tat: number, now: number): Promise<void> {
    const item: StoredBucket = { key: bucket.key, tat }
    await this.#base.put(item, undefined, { expireIn: Math.ceil((tat - now) / 1000) + 1 })
  }

  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#queue.then(work)
    this.#queue = turn.catch(() => {})
    return turn
  }
}
