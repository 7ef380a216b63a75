import type { RateLimit } from './rate-limit.js'

/**
 * A limit as the generic cell rate algorithm (GCRA) counts it, in one number per bucket: its
 * theoretical arrival time (TAT), when the bucket would be empty again. `count` sends fit at once,
 * and one more every `windowMs / count` after: over time, `count` per window, whatever came
 * before. Each send costs the same, one read and one write of that number, however many sends
 * the window holds; a list of send times would grow with them.
 */

/** The time one send holds its bucket for: the window shared among its sends. */
export const intervalOf = ({ count, windowMs }: RateLimit) => windowMs / count

/** How far ahead of now a bucket's TAT may be for one more send to fit: all but one interval. */
const toleranceOf = (limit: RateLimit) => limit.windowMs - intervalOf(limit)

export type GcraDecision =
  | { admitted: true; tat: number }
  | { admitted: false; retryAfterMs: number }

/**
 * Whether one more send at `now` fits a bucket whose TAT is `tat` (undefined: empty): if so, the
 * bucket's new TAT; if not, how long until it fits.
 */
export function gcraTake(tat: number | undefined, limit: RateLimit, now: number): GcraDecision {
  const from = Math.max(tat ?? now, now)
  const ahead = from - now - toleranceOf(limit)
  if (ahead > 0) return { admitted: false, retryAfterMs: Math.max(1, Math.ceil(ahead)) }
  return { admitted: true, tat: from + intervalOf(limit) }
}

/**
 * A bucket's TAT at `now` once a send counted at `takenAt` is taken back; undefined once it is
 * empty. Within that send's interval the bucket cannot have emptied since, so one interval off
 * is exactly that send. After it, the bucket may have emptied and filled again with later sends,
 * and an interval off would free a slot of theirs: nothing is taken back then.
 */
export function gcraGiveBack(
  tat: number | undefined,
  limit: RateLimit,
  takenAt: number,
  now: number,
): number | undefined {
  if (tat === undefined || tat <= now) return undefined
  const interval = intervalOf(limit)
  if (now >= takenAt + interval) return tat
  const back = tat - interval
  return back > now ? back : undefined
}
