/** The first backoff, and the longest. */
const firstBackoffMs = 500
const longestBackoffMs = 10_000

/**
 * The wait before retry number `retry` (1 for the first) when the service named none: 500 ms
 * doubled for each retry before it, at most 10 s, of which a random part (the upper half) is
 * left out, so that clients failed together do not all come back at once.
 */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(firstBackoffMs * 2 ** Math.max(retry - 1, 0), longestBackoffMs)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/**
 * An answer's `Retry-After` as milliseconds: seconds (`120`) or an HTTP date, a date past
 * being 0; undefined when it has none, or none that reads.
 */
export function retryAfterMs(response: Response, now: number = Date.now()): number | undefined {
  const header = response.headers.get('retry-after')?.trim() ?? ''
  if (/^\d+$/.test(header)) return Number(header) * 1000
  // Every HTTP date starts with the day's name (`Wed, 25 Nov 2026 12:00:30 GMT`).
  const date = /^[a-z]/i.test(header) ? Date.parse(header) : Number.NaN
  return Number.isNaN(date) ? undefined : Math.max(date - now, 0)
}
