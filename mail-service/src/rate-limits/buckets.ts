import type { Bucket } from '../ports/send-counter.js'
import type { RateLimit } from './rate-limit.js'

export type RateLimits = { perRecipient: RateLimit | null; perKey: RateLimit | null }

/**
 * The inbox an address reaches, as the recipient limit counts it: the whole address in lower
 * case, and the local part without its `+tag` (`Ada+news@Example.com` is `ada@example.com`), so
 * one inbox has one count however the address is spelt. Dots stay: only some providers ignore
 * them (Gmail does), and elsewhere `a.da@` and `ada@` may be two people. A local part that
 * starts with `+` has no tag to remove.
 * @example recipientOf('Ada+news@Example.COM') // 'ada@example.com'
 */
export function recipientOf(email: string): string {
  const at = email.lastIndexOf('@')
  const local = email.slice(0, at)
  const plus = local.indexOf('+')
  const untagged = plus > 0 ? local.slice(0, plus) : local
  return `${untagged}@${email.slice(at + 1)}`.toLowerCase()
}

/**
 * The buckets a send to `email` counts in: its recipient's, and its API key's, kept under the
 * key's digest only (`keyDigest`).
 */
export function bucketsFor(
  { email, keyDigest }: { email: string; keyDigest: string },
  { perRecipient, perKey }: RateLimits,
): Bucket[] {
  const buckets: Bucket[] = []
  if (perRecipient) buckets.push({ key: `to:${recipientOf(email)}`, limit: perRecipient })
  if (perKey) buckets.push({ key: `key:${keyDigest}`, limit: perKey })
  return buckets
}
