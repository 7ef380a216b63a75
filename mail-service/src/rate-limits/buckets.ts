import type { Bucket } from '../ports/send-counter.js'
import { recipientOf } from './inbox.js'
import type { RateLimit } from './rate-limit.js'

export type RateLimits = { perRecipient: RateLimit | null; perKey: RateLimit | null }

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
