import type { JSONWebKeySet } from 'jose'

/** The key set a response's JSON is: an object with a `keys` array of objects, or an error. */
export function keySetOf(json: unknown): JSONWebKeySet {
  const keys = (json as { keys?: unknown } | null)?.keys
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'object' && key !== null)) {
    throw new Error('the key set is not a JWK Set')
  }
  return { keys } as JSONWebKeySet
}

/**
 * How long a key set may be used before it is fetched again: its `Cache-Control` `max-age`
 * (`no-cache` and `no-store`: the least), held within the bounds; the default without one.
 */
export function maxAgeOf(
  cacheControl: string | null,
  { minMs, maxMs, defaultMs }: { minMs: number; maxMs: number; defaultMs: number },
): number {
  const directives = (cacheControl ?? '').toLowerCase()
  if (/(?:^|,)\s*no-(?:cache|store)\s*(?:,|$)/.test(directives)) return minMs
  const seconds = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/.exec(directives)?.[1]
  const ms = seconds === undefined ? defaultMs : Number(seconds) * 1000
  return Math.min(maxMs, Math.max(minMs, ms))
}
