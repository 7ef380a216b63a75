import type { SqlStorage } from '@cloudflare/workers-types'

/** The logs the object keeps: the mail log and the outbox. */
export type LogName = 'maillog' | 'outbox'

/** A record as the table keeps it: its `_id` and its fields as JSON. */
export type StoredRow = { id: string; json: string }

/**
 * The mail log and the outbox in the mail state object's SQLite storage: one row a record, keyed
 * by its log and its `_id` (sortable by creation time), its fields as JSON, and its owner (the
 * digest of the API key that made it; null for the records made before records had owners). A
 * page is one read of the primary key, or of the index on (log, owner, id) for one owner, of
 * `limit` rows. The object is the one writer of every log, so each new `_id` sorts after every
 * `_id` before it, whatever the clock of the isolate that proposed it. The object runs each
 * method in one transaction.
 */
export class MailRecordsTable {
  readonly #sql: SqlStorage

  constructor(sql: SqlStorage) {
    this.#sql = sql
    sql.exec(
      'CREATE TABLE IF NOT EXISTS mail_records (log TEXT NOT NULL, id TEXT NOT NULL, ' +
        'json TEXT NOT NULL, owner TEXT, PRIMARY KEY (log, id)) WITHOUT ROWID',
    )
    // The table of an object made before records had owners gains the column; its rows, none.
    const columns = sql.exec<{ name: string }>('PRAGMA table_info(mail_records)').toArray()
    if (!columns.some(({ name }) => name === 'owner')) {
      sql.exec('ALTER TABLE mail_records ADD COLUMN owner TEXT')
    }
    sql.exec('CREATE INDEX IF NOT EXISTS mail_records_by_owner ON mail_records (log, owner, id)')
  }

  /**
   * Appends a record of `owner` (null: none) under `proposedId`, or under the next id after the
   * log's newest when that one does not sort after it; answers the id kept. With `keepFrom`,
   * the records of the log with a lower id (older than its retention) go at the same time.
   */
  insert(log: LogName, { proposedId, json, owner, keepFrom }: NewRecord): string {
    if (keepFrom !== undefined) {
      this.#sql.exec('DELETE FROM mail_records WHERE log = ? AND id < ?', log, keepFrom)
    }
    const [newest] = this.#sql
      .exec<{ id: string }>(
        'SELECT id FROM mail_records WHERE log = ? ORDER BY id DESC LIMIT 1',
        log,
      )
      .toArray()
    const id = newest && proposedId <= newest.id ? nextId(newest.id) : proposedId
    const insert = 'INSERT INTO mail_records (log, id, json, owner) VALUES (?, ?, ?, ?)'
    this.#sql.exec(insert, log, id, json, owner ?? null)
    return id
  }

  /**
   * The newest `limit` records of the log (of those below `before`, and of `owner`, when
   * given), newest first.
   */
  list(log: LogName, { limit, before, owner }: RecordsPage): StoredRow[] {
    const conditions = ['log = ?']
    const values: (string | number)[] = [log]
    if (owner !== undefined) {
      conditions.push('owner = ?')
      values.push(owner)
    }
    if (before !== undefined) {
      conditions.push('id < ?')
      values.push(before)
    }
    // Left to itself, SQLite walks the primary key back from the cursor and skips the other
    // owners' rows: as many as they made since. The index reads only this owner's.
    const index = owner === undefined ? '' : ' INDEXED BY mail_records_by_owner'
    const where = conditions.join(' AND ')
    return this.#sql
      .exec<StoredRow>(
        `SELECT id, json FROM mail_records${index} WHERE ${where} ORDER BY id DESC LIMIT ?`,
        ...values,
        limit,
      )
      .toArray()
  }

  /** Removes the records of the log whose id is below `firstKept`; how many. */
  prune(log: LogName, firstKept: string): number {
    const older = this.#sql
      .exec<{ n: number }>(
        'SELECT count(*) AS n FROM mail_records WHERE log = ? AND id < ?',
        log,
        firstKept,
      )
      .one().n
    if (older > 0)
      this.#sql.exec('DELETE FROM mail_records WHERE log = ? AND id < ?', log, firstKept)
    return older
  }
}

/** A record for `insert`: the `_id` its isolate proposes, its JSON, its owner, the retention. */
export type NewRecord = {
  proposedId: string
  json: string
  owner?: string | undefined
  /** The lowest id the log keeps: lower ones go in the same transaction. */
  keepFrom?: string | undefined
}

/** Which records `list` answers. */
export type RecordsPage = {
  limit: number
  before?: string | undefined
  owner?: string | undefined
}

/** The id right after `id`: 24 hex digits, one more. */
function nextId(id: string): string {
  return (BigInt(`0x${id}`) + 1n).toString(16).padStart(24, '0')
}
