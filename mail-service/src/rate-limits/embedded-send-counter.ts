import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { Database } from 'lmdb'
import { gcraGiveBack } from './gcra.js'
import { type Admission, admit, type Bucket, type SendCounter } from './send-counter.js'

/**
 * Sends counted in the service's embedded store (database `sends`: each bucket's TAT), so a
 * restart forgets none. This process owns the store, so it decides each count against the TATs
 * it holds in memory, at once and in order, and a count resolves once its new TATs are committed
 * and synced: two requests cannot both take a bucket's last room, and counts do not wait for one
 * another's commits, which the engine takes together (a TAT only grows while sends are counted,
 * so the last commit holds the last count).
 */
export class EmbeddedSendCounter implements SendCounter {
  readonly #env: EmbeddedEnv
  readonly #stored: Database<string, string>
  /** Each bucket's TAT as decided, read from the store the first time a bucket is counted. */
  readonly #tats = new Map<string, number | undefined>()

  constructor(env: EmbeddedEnv) {
    this.#env = env
    this.#stored = env.database<string>('sends', 'string')
  }

  async take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    const { admission, tats } = admit(buckets, (bucket) => this.#tatOf(bucket), now)
    for (const [bucket, tat] of tats) this.#tats.set(bucket.key, tat)
    await this.#store(tats)
    return admission
  }

  async giveBack(buckets: readonly Bucket[], at: number): Promise<void> {
    const tats = new Map(
      buckets.map((bucket) => [bucket, gcraGiveBack(this.#tatOf(bucket), bucket.limit, at)]),
    )
    for (const [bucket, tat] of tats) this.#tats.set(bucket.key, tat)
    await this.#store(tats)
  }

  async prune(now: number): Promise<number> {
    const empty: string[] = []
    for (const { key, value } of this.#stored.getRange()) {
      const tat = this.#tats.has(key) ? this.#tats.get(key) : Number(value)
      if (tat === undefined || tat <= now) empty.push(key)
    }
    for (const [key, tat] of this.#tats) if (tat === undefined || tat <= now) this.#tats.delete(key)
    if (empty.length > 0) {
      await this.#env.commit(0, () => {
        for (const key of empty) this.#stored.remove(key)
      })
    }
    return empty.length
  }

  /** Reads one bucket: the embedded store answers while it is open. */
  async ping(): Promise<void> {
    this.#stored.get('')
  }

  #tatOf(bucket: Bucket): number | undefined {
    if (this.#tats.has(bucket.key)) return this.#tats.get(bucket.key)
    const value = this.#stored.get(bucket.key)
    const tat = value === undefined ? undefined : Number(value)
    this.#tats.set(bucket.key, tat)
    return tat
  }

  /** Keeps the buckets' new TATs in one commit (undefined: the bucket is empty again). */
  async #store(tats: Map<Bucket, number | undefined>): Promise<void> {
    if (tats.size === 0) return
    await this.#env.commit(tats.size * 24, () => {
      for (const [bucket, tat] of tats) {
        if (tat === undefined) this.#stored.remove(bucket.key)
        else this.#stored.put(bucket.key, String(tat))
      }
    })
  }
}
