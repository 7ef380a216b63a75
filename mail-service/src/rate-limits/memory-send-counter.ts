import { type Admission, admit, type Bucket, inWindow, type SendCounter } from './send-counter.js'

/**
 * Sends counted in memory only: the Worker's counter without a Deta Base (per isolate), and
 * tests. A bucket keeps only the sends inside its window.
 */
export class MemorySendCounter implements SendCounter {
  readonly #sends = new Map<string, number[]>()

  async take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    const recent = new Map(
      buckets.map((bucket) => [
        bucket,
        inWindow(this.#sends.get(bucket.key) ?? [], bucket.limit, now),
      ]),
    )
    const admission = admit(buckets, (bucket) => recent.get(bucket) ?? [], now)
    for (const [bucket, sends] of recent) {
      if (admission.admitted) sends.push(now)
      if (sends.length > 0) this.#sends.set(bucket.key, sends)
      else this.#sends.delete(bucket.key)
    }
    return admission
  }

  async giveBack(buckets: readonly Bucket[], at: number): Promise<void> {
    for (const bucket of buckets) {
      const sends = this.#sends.get(bucket.key) ?? []
      const index = sends.lastIndexOf(at)
      if (index >= 0) sends.splice(index, 1)
      if (sends.length === 0) this.#sends.delete(bucket.key)
    }
  }

  async prune(): Promise<number> {
    // `take` keeps only the sends inside a window and drops a bucket once none is left.
    return 0
  }
}
