import type { SqlStorage } from '@cloudflare/workers-types'
import type {
  IdempotencyRecord,
  KeptResponse,
  UnansweredKey,
} from '../../ports/idempotency-store.js'

type Row = {
  fingerprint: string
  taken_at: number
  expires_at: number
  /** The kept answer's: a 201 or 202, or none while the request is in progress or unknown. */
  status: 201 | 202 | null
  body: string | null
  /** The digest of the API key that took it; null on keys of the releases before. */
  owner: string | null
}

const columns = 'fingerprint, taken_at, expires_at, status, body, owner'

/**
 * The idempotency keys in the mail state object's SQLite storage: one row a key, holding its
 * request's fingerprint, when it was taken and expires, and once the request succeeded its
 * answer. The object runs each method in one transaction.
 */
export class IdempotencyKeysTable {
  readonly #sql: SqlStorage

  constructor(sql: SqlStorage) {
    this.#sql = sql
    sql.exec(
      'CREATE TABLE IF NOT EXISTS idempotency_keys (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, ' +
        'taken_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, status INTEGER, body TEXT)',
    )
    // The table of an object made before keys had owners gains the column; its rows, none.
    const names = sql.exec<{ name: string }>('PRAGMA table_info(idempotency_keys)').toArray()
    if (!names.some(({ name }) => name === 'owner')) {
      sql.exec('ALTER TABLE idempotency_keys ADD COLUMN owner TEXT')
    }
    sql.exec(
      'CREATE INDEX IF NOT EXISTS idempotency_keys_by_expiry ON idempotency_keys (expires_at)',
    )
  }

  /**
   * Takes `key` unless a record that has not expired holds it, with an answer or without (then
   * answers that record): a key whose isolate ended mid-request may have sent its mail.
   */
  take(key: string, record: IdempotencyRecord): IdempotencyRecord | null {
    const [held] = this.#sql
      .exec<Row>(`SELECT ${columns} FROM idempotency_keys WHERE key = ?`, key)
      .toArray()
    const now = record.takenAt
    if (held && held.expires_at > now) return recordOf(held)
    // Keys leave as new ones come, so the table holds about a day of keys.
    this.#sql.exec('DELETE FROM idempotency_keys WHERE expires_at <= ?', now)
    this.#sql.exec(
      'INSERT OR REPLACE INTO idempotency_keys (key, fingerprint, taken_at, expires_at, owner) ' +
        'VALUES (?, ?, ?, ?, ?)',
      key,
      record.fingerprint,
      record.takenAt,
      record.expiresAt,
      record.owner ?? null,
    )
    return null
  }

  /** Keeps the answer of the take of `takenAt`, still without one; an answer never changes. */
  complete(key: string, { status, body }: KeptResponse, takenAt: number): void {
    this.#sql.exec(
      'UPDATE idempotency_keys SET status = ?, body = ? ' +
        'WHERE key = ? AND taken_at = ? AND status IS NULL',
      status,
      body,
      key,
      takenAt,
    )
  }

  /** The oldest `limit` keys without an answer that have not expired at `now`. */
  unanswered(now: number, limit: number): UnansweredKey[] {
    return this.#sql
      .exec<Row & { key: string }>(
        `SELECT key, ${columns} FROM idempotency_keys WHERE status IS NULL AND expires_at > ? ` +
          'ORDER BY taken_at LIMIT ?',
        now,
        limit,
      )
      .toArray()
      .map((row) => ({ key: row.key, record: recordOf(row) }))
  }

  /** Frees a key still in progress; a key with an answer stays until it expires. */
  release(key: string): void {
    this.#sql.exec('DELETE FROM idempotency_keys WHERE key = ? AND status IS NULL', key)
  }

  /** Forgets the keys that expired at `now`; how many. */
  prune(now: number): number {
    const expired = this.#sql
      .exec<{ n: number }>('SELECT count(*) AS n FROM idempotency_keys WHERE expires_at <= ?', now)
      .one().n
    if (expired > 0) this.#sql.exec('DELETE FROM idempotency_keys WHERE expires_at <= ?', now)
    return expired
  }
}

function recordOf({
  fingerprint,
  taken_at,
  expires_at,
  status,
  body,
  owner,
}: Row): IdempotencyRecord {
  const record: IdempotencyRecord = { fingerprint, takenAt: taken_at, expiresAt: expires_at }
  if (owner !== null) record.owner = owner
  if (status !== null && body !== null) record.answer = { status, body }
  return record
}
