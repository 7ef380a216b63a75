import { gcraTake } from '../rate-limits/gcra.js'
import type { RateLimit } from '../rate-limits/rate-limit.js'

/** One limit on one thing: `key` names it (a recipient, an API key), hashed where secret. */
export type Bucket = { key: string; limit: RateLimit }

export type Admission =
  | { admitted: true }
  /** `bucket` is the full bucket's key; a slot frees in `retryAfterMs`. */
  | { admitted: false; bucket: string; retryAfterMs: number }

/**
 * Counts sends per bucket (`gcra.ts`: one number a bucket, whatever it has counted), in durable
 * state where the store is, so that limits hold across restarts and across instances sharing one
 * store.
 */
export interface SendCounter {
  /** Counts one send in every bucket, unless one of them is full: then counts none. */
  take(buckets: readonly Bucket[], now: number): Promise<Admission>
  /**
   * Takes back, at `now`, one send `take` counted in these buckets at `takenAt`: the provider
   * did not accept it, so it reached no inbox. Where a bucket may have filled again since
   * (`gcraGiveBack`), it keeps its count.
   */
  giveBack(buckets: readonly Bucket[], takenAt: number, now: number): Promise<void>
  /** Forgets buckets that are empty again at `now`; how many. */
  prune(now: number): Promise<number>
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>
}

/**
 * Decides a send in every bucket at once: the first bucket that has no room refuses it, and then
 * none is counted; otherwise each bucket's new TAT (see `gcra.ts`), for the store to keep.
 */
export function admit(
  buckets: readonly Bucket[],
  tatOf: (bucket: Bucket) => number | undefined,
  now: number,
): { admission: Admission; tats: Map<Bucket, number> } {
  const tats = new Map<Bucket, number>()
  for (const bucket of buckets) {
    const decision = gcraTake(tatOf(bucket), bucket.limit, now)
    if (!decision.admitted) {
      const admission = {
        admitted: false,
        bucket: bucket.key,
        retryAfterMs: decision.retryAfterMs,
      } as const
      return { admission, tats: new Map() }
    }
    tats.set(bucket, decision.tat)
  }
  return { admission: { admitted: true }, tats }
}
