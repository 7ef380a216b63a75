/**
 * What a key keeps of a request the provider took, to give again: its 201 (the provider's
 * answer), or the 202 of a send whose answer could not be read (`sendmail/provider-answer.ts`).
 */
export type KeptResponse = { status: 201 | 202; body: string }

/** A key's record: taken by a request in progress or of unknown outcome, or holding its answer. */
export type IdempotencyRecord = {
  /** The digest of the request's body, to tell a repeat from another request. */
  fingerprint: string
  /** When the key was taken (ms since the epoch). */
  takenAt: number
  /** When the key is forgotten (ms since the epoch). */
  expiresAt: number
  /** Absent while the request is in progress, or when its outcome is unknown. */
  answer?: KeptResponse
  /**
   * The digest of the API key that took it (`keyDigest`): the owner of the mail log record its
   * send made, where a start finds the outcome of a key left without an answer. Absent on keys
   * taken by the releases before.
   */
  owner?: string
  /**
   * Set by a store that knows no request is in progress under a key without an answer: the
   * process that took it ended (the embedded store, which one process owns). Other stores leave
   * it to the time since `takenAt`.
   */
  orphaned?: true
}

/** A key held without an answer, as `IdempotencyStore.unanswered` lists it. */
export type UnansweredKey = { key: string; record: IdempotencyRecord }

/**
 * Where `Idempotency-Key`s are kept, durable where the store is (a restart forgets nothing).
 * Keys come scoped and hashed (`scopedKey`), so a store never holds a caller's API key. A key
 * whose request may have sent a mail is never free again before it expires: only `release`
 * frees it, for a request that sent nothing.
 */
export interface IdempotencyStore {
  /**
   * Takes `key` for a new request, unless a record that has not expired holds it, with an
   * answer or without: then resolves with that record and changes nothing. Resolves null when
   * the key was taken.
   */
  take(key: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null>
  /**
   * Keeps `answer` under `key` while it holds the take of `takenAt` without an answer,
   * whichever process took it (a later one completes a key from the mail log); otherwise
   * changes nothing: an answer once kept never changes.
   */
  complete(key: string, answer: KeptResponse, takenAt: number): Promise<void>
  /**
   * Up to `limit` keys held without an answer that have not expired at `now`, oldest take
   * first, but for those this process is taking: keys left by a process that ended mid-send,
   * or in progress in another one, for a start to complete from the mail log
   * (`sendmail/left-keys.ts`).
   */
  unanswered(now: number, limit: number): Promise<UnansweredKey[]>
  /** Frees a key this process took, whose request sent nothing: a retry is a new request. */
  release(key: string): Promise<void>
  /** Forgets records that expired before `now`; how many. */
  prune(now: number): Promise<number>
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>
}

/** How long a key is kept. */
export const idempotencyKeyTtlMs = 24 * 3_600_000

/** 1-255 printable ASCII characters, spaces included, as the header field's draft allows. */
export const validIdempotencyKey = /^[\x20-\x7e]{1,255}$/

const encoder = new TextEncoder()

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * The store key of `idempotencyKey` sent with `apiKey`: one caller's keys never meet another's,
 * and neither value is kept as it is. 64 hex characters.
 */
export function scopedKey(apiKey: string, idempotencyKey: string): Promise<string> {
  return sha256Hex(`${apiKey.length}:${apiKey}\n${idempotencyKey}`)
}

/** The digest of a request's validated fields, for telling a repeat from another request. */
export function fingerprintOf(fields: Record<string, string>): Promise<string> {
  const sorted = Object.keys(fields)
    .sort()
    .map((name) => [name, fields[name]])
  return sha256Hex(JSON.stringify(sorted))
}
