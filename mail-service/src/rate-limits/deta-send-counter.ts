import { Deta } from 'deta'
import { type Admission, admit, type Bucket, type SendCounter } from './send-counter.js'

type DetaBase = ReturnType<ReturnType<typeof Deta>['Base']>
type Send = { bucket: string; at: number }

/**
 * Sends counted in a Deta Base (`sends`), shared by every instance that uses it: one item per
 * counted send and bucket, expiring with its window, and a count is a query for the bucket's
 * sends inside the window. One instance counts one send at a time; two instances counting the
 * last slot of a bucket at the same moment may both take it, as a Base has no transactions.
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
    const turn = this.#queue.then(() => this.#take(buckets, now))
    this.#queue = turn.catch(() => {})
    return turn
  }

  async #take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    const recent = new Map<Bucket, number[]>()
    for (const bucket of buckets) recent.set(bucket, await this.#sendsOf(bucket, now))
    const admission = admit(buckets, (bucket) => recent.get(bucket) ?? [], now)
    if (!admission.admitted) return admission
    for (const bucket of buckets) {
      const send: Send = { bucket: bucket.key, at: now }
      await this.#base.insert(send, undefined, {
        expireIn: Math.ceil(bucket.limit.windowMs / 1000),
      })
    }
    return admission
  }

  giveBack(buckets: readonly Bucket[], at: number): Promise<void> {
    const turn = this.#queue.then(async () => {
      for (const bucket of buckets) {
        const { items } = await this.#base.fetch({ bucket: bucket.key, at }, { limit: 1 })
        const counted = items[0] as { key?: string } | undefined
        if (counted?.key) await this.#base.delete(counted.key)
      }
    })
    this.#queue = turn.catch(() => {})
    return turn
  }

  async prune(): Promise<number> {
    // Each send expires with its window: the Base forgets it by itself.
    return 0
  }

  async #sendsOf(bucket: Bucket, now: number): Promise<number[]> {
    const times: number[] = []
    let last: string | undefined
    do {
      const page = await this.#base.fetch(
        { bucket: bucket.key, 'at?gt': now - bucket.limit.windowMs },
        { limit: 1000, last },
      )
      for (const item of page.items as unknown as Send[]) times.push(item.at)
      last = page.last
    } while (last)
    return times.sort((a, b) => a - b)
  }
}
