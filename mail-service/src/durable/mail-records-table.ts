import type { SqlStorage } from '@cloudflare/workers-types'

/** The logs the object keeps: the mail log and the outbox. */
export type LogName = 'maillog' | 'outbox'

/** A record as the table keeps it: its `_id` and its fields as JSON. */
export type StoredRow = { id: string; json: string }

/**
 * The mail log and the outbox in the mail state object's SQLite storage: one row a record, keyed
 * by its log and its `_id` (sortable by creation time), its fields as JSON. The object is the one
 * writer of every log, so each new `_id` sorts after every `_id` before it, whatever the clock of
 * the isolate that proposed it. The object runs each method in one transaction.
 */
export class MailRecordsTable {
  readonly #sql: SqlStorage

  constructor(sql: SqlStorage) {
    this.#sql = sql
    sql.exec(
      'CREATE TABLE IF NOT EXISTS mail_records (log TEXT NOT NULL, id TEXT NOT NULL, ' +
        'json TEXT NOT NULL, PRIMARY KEY (log, id)) WITHOUT ROWID',
    )
  }

  /**
   * Appends a record under `proposedId`, or under the next id after the log's newest when that
   * one does not sort after it; answers the id kept. With `keepFrom`, the records of the log with
   * a lower id (older than its retention) go at the same time.
   */
  insert(log: LogName, proposedId: string, json: string, keepFrom?: string): string {
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
    this.#sql.exec('INSERT INTO mail_records (log, id, json) VALUES (?, ?, ?)', log, id, json)
    return id
  }

  /** The newest `limit` records of the log (of those below `before`, when given), newest first. */
  list(log: LogName, limit: number, before?: string): StoredRow[] {
    const rows =
      before === undefined
        ? this.#sql.exec<StoredRow>(
            'SELECT id, json FROM mail_records WHERE log = ? ORDER BY id DESC LIMIT ?',
            log,
            limit,
          )
        : this.#sql.exec<StoredRow>(
            'SELECT id, json FROM mail_records WHERE log = ? AND id < ? ORDER BY id DESC LIMIT ?',
            log,
            before,
            limit,
          )
    return rows.toArray()
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

/** The id right after `id`: 24 hex digits, one more. */
function nextId(id: string): string {
  return (BigInt(`0x${id}`) + 1n).toString(16).padStart(24, '0')
}
