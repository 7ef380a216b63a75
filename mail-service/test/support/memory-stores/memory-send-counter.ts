import {
  type Admission,
  admit,
  type Bucket,
  type SendCounter,
} from '../../../src/ports/send-counter.js'
import { gcraGiveBack } from '../../../src/rate-limits/gcra.js'

/** Sends counted in memory only: for tests, and for what needs no durable state. */
export class MemorySendCounter implements SendCounter {
  /** Each bucket's TAT. */
  readonly #tats = new Map<string, number>()

  async take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    const { admission, tats } = admit(buckets, (bucket) => this.#tats.get(bucket.key), now)
    for (const [bucket, tat] of tats) this.#tats.set(bucket.key, tat)
    return admission
  }

  async giveBack(buckets: readonly Bucket[], takenAt: number, now: number): Promise<void> {
    for (const bucket of buckets) {
      const tat = gcraGiveBack(this.#tats.get(bucket.key), bucket.limit, takenAt, now)
      if (tat === undefined) this.#tats.delete(bucket.key)
      else this.#tats.set(bucket.key, tat)
    }
  }

  async ping(): Promise<void> {}

  async prune(now: number): Promise<number> {
    let pruned = 0
    for (const [key, tat] of this.#tats) {
      if (tat > now) continue
      this.#tats.delete(key)
      pruned += 1
    }
    return pruned
  }
}
