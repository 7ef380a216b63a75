const encoder = new TextEncoder()

/** How far an event's signing time may be from ours, either way: Mailgun's own advice. */
export const signatureWindowMs = 15 * 60_000

/** The signed part of a Mailgun webhook body (`signature`). */
export type MailgunSignature = { timestamp: string; token: string; signature: string }

/** Why a signature is refused; `ok` when it is Mailgun's and fresh. */
export type SignatureCheck = 'ok' | 'wrong signature' | 'stale timestamp'

/**
 * The checker of Mailgun's webhook signatures for a signing key (MAILGUN_WEBHOOK_SIGNING_KEY):
 * the signature is the hex HMAC-SHA256 of `timestamp` then `token`, keyed with it (Mailgun's
 * "Securing webhooks"). Web Crypto's `verify` compares in constant time, on Node and workerd
 * alike; the timestamp must lie within `signatureWindowMs` of `now`. The token is the caller's
 * to take once: the signature covers it, not the event.
 * @example const check = mailgunSignatureCheck(key); await check(body.signature, Date.now())
 */
export function mailgunSignatureCheck(signingKey: string) {
  const key = crypto.subtle.importKey(
    'raw',
    encoder.encode(signingKey),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  )
  return async ({ timestamp, token, signature }: MailgunSignature, now: number) => {
    const given = hexBytes(signature)
    if (given?.length !== 32) return 'wrong signature'
    const signed = encoder.encode(timestamp + token)
    if (!(await crypto.subtle.verify('HMAC', await key, given, signed))) return 'wrong signature'
    const seconds = Number(timestamp)
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(seconds * 1000 - now) > signatureWindowMs) {
      return 'stale timestamp'
    }
    return 'ok' satisfies SignatureCheck
  }
}

/** The bytes of a hex string, or undefined when it is not hex. */
function hexBytes(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return undefined
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  return bytes
}
