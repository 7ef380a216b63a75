import type { RateLimit } from './rate-limit.js'
import type { Bucket } from './send-counter.js'

export type RateLimits = { perRecipient: RateLimit | null; perKey: RateLimit | null }

/** The address as limits count it: the domain in lower case, the local part as written. */
export function recipientOf(email: string): string {
  const at = email.lastIndexOf('@')
  return `${email.slice(0, at)}@${email.slice(at + 1).toLowerCase()}`
}

async function apiKeyDigest(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiKey))
  return Array.from(new Uint8Array(digest).slice(0, 16), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
}

/** The buckets a send to `email` with `apiKey` counts in; the key is kept as a digest only. */
export async function bucketsFor(
  { email, apiKey }: { email: string; apiKey: string },
  { perRecipient, perKey }: RateLimits,
): Promise<Bucket[]> {
  const buckets: Bucket[] = []
  if (perRecipient) buckets.push({ key: `to:${recipientOf(email)}`, limit: perRecipient })
  if (perKey) buckets.push({ key: `key:${await apiKeyDigest(apiKey)}`, limit: perKey })
  return buckets
}
