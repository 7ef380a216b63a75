import type { RateLimit } from './rate-limit.js'

/** One limit on one thing: `key` names it (a recipient, an API key), hashed where secret. */
export type Bucket = { key: string; limit: RateLimit }

export type Admission =
  | { admitted: true }
  /** `bucket` is the full bucket's key; a slot frees in `retryAfterMs`. */
  | { admitted: false; bucket: string; retryAfterMs: number }

/**
 * Counts sends per bucket over sliding windows, in durable state where the store is, so that
 * limits hold across restarts and across instances sharing one store.
 */
export interface SendCounter {
  /** Counts one send in every bucket, unless one of them is full: then counts none. */
  take(buckets: readonly Bucket[], now: number): Promise<Admission>
  /**
   * Takes back the send `take` counted at `at` in these buckets: the provider did not accept
   * it, so it reached no inbox.
   */
  giveBack(buckets: readonly Bucket[], at: number): Promise<void>
  /** Forgets buckets with no send inside their window at `now`; how many. */
  prune(now: number): Promise<number>
}

/** The sends of one bucket still inside its window at `now`, oldest first. */
export function inWindow(sends: readonly number[], { windowMs }: RateLimit, now: number): number[] {
  return sends.filter((at) => at > now - windowMs)
}

/**
 * Whether one more send fits in a bucket holding `recent` (sends inside its window, oldest
 * first): null when it does, otherwise how long until the oldest send that counts leaves it.
 */
export function waitFor(recent: readonly number[], limit: RateLimit, now: number): number | null {
  if (recent.length < limit.count) return null
  const freeing = recent[recent.length - limit.count] as number
  return Math.max(1, freeing + limit.windowMs - now)
}

/** Checks every bucket before counting in any: the first full one refuses the send. */
export function admit(
  buckets: readonly Bucket[],
  recentOf: (bucket: Bucket) => number[],
  now: number,
): Admission {
  for (const bucket of buckets) {
    const retryAfterMs = waitFor(recentOf(bucket), bucket.limit, now)
    if (retryAfterMs !== null) return { admitted: false, bucket: bucket.key, retryAfterMs }
  }
  return { admitted: true }
}
