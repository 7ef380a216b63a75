import type { SqlStorage } from '@cloudflare/workers-types'
import { type Admission, admit, type Bucket } from '../../ports/send-counter.js'
import { gcraGiveBack } from '../../rate-limits/gcra.js'

/**
 * The send counts in the mail state object's SQLite storage: one row a bucket, its TAT
 * (`gcra.ts`), gone once the bucket is empty again. The object runs each method in one
 * transaction, so a send is counted in all its buckets or in none, and two sends never share a
 * bucket's last slot.
 */
export class SendCountsTable {
  readonly #sql: SqlStorage

  constructor(sql: SqlStorage) {
    this.#sql = sql
    sql.exec('CREATE TABLE IF NOT EXISTS send_counts (bucket TEXT PRIMARY KEY, tat REAL NOT NULL)')
    sql.exec('CREATE INDEX IF NOT EXISTS send_counts_by_tat ON send_counts (tat)')
  }

  take(buckets: readonly Bucket[], now: number): Admission {
    // A bucket whose TAT has passed is empty: it goes, as a send to any bucket comes.
    this.#sql.exec('DELETE FROM send_counts WHERE tat <= ?', now)
    const { admission, tats } = admit(buckets, (bucket) => this.#tatOf(bucket.key), now)
    for (const [bucket, tat] of tats) this.#put(bucket.key, tat)
    return admission
  }

  giveBack(buckets: readonly Bucket[], takenAt: number, now: number): void {
    for (const bucket of buckets) {
      const tat = gcraGiveBack(this.#tatOf(bucket.key), bucket.limit, takenAt, now)
      if (tat === undefined) this.#sql.exec('DELETE FROM send_counts WHERE bucket = ?', bucket.key)
      else this.#put(bucket.key, tat)
    }
  }

  /** Forgets the buckets that are empty at `now`; how many. */
  prune(now: number): number {
    const empty = this.#sql
      .exec<{ n: number }>('SELECT count(*) AS n FROM send_counts WHERE tat <= ?', now)
      .one().n
    if (empty > 0) this.#sql.exec('DELETE FROM send_counts WHERE tat <= ?', now)
    return empty
  }

  #tatOf(bucket: string): number | undefined {
    const [row] = this.#sql
      .exec<{ tat: number }>('SELECT tat FROM send_counts WHERE bucket = ?', bucket)
      .toArray()
    return row?.tat
  }

  #put(bucket: string, tat: number): void {
    this.#sql.exec(
      'INSERT INTO send_counts (bucket, tat) VALUES (?, ?) ' +
        'ON CONFLICT (bucket) DO UPDATE SET tat = excluded.tat',
      bucket,
      tat,
    )
  }
}
