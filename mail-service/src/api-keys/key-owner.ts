const encoder = new TextEncoder()

/**
 * What a store keeps of an API key: the first 16 bytes of its SHA-256 as 32 hex digits. The
 * rate limit counts a key under it (`key:<digest>`) and every record a key makes is filed under
 * it as the record's owner; the key itself is never stored.
 * @example await keyDigest('my-mail-api-key-1') // 32 hex digits
 */
export async function keyDigest(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(apiKey))
  return Array.from(new Uint8Array(digest).slice(0, 16), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
}

/**
 * Whose records an API key reads, answered per request: `{ owner }`, the records it made, or
 * `{ owner: undefined }`, every record, for a key of `adminKeys` (ADMIN_API_KEYS). Only an admin
 * key reads the records made before records had owners.
 */
export type RecordReader = (apiKey: string) => Promise<{ owner: string | undefined }>

/**
 * The reader of the mail log and the outbox for the admin keys given: the one place that
 * decides what a key may list.
 * @example const readerOf = recordReader(['ops-key']); await readerOf('k1') // { owner: '…' }
 */
export function recordReader(adminKeys: readonly string[]): RecordReader {
  const admins = Promise.all(adminKeys.map(keyDigest)).then((digests) => new Set(digests))
  return async (apiKey) => {
    const digest = await keyDigest(apiKey)
    return { owner: (await admins).has(digest) ? undefined : digest }
  }
}
