import type { SortableIdSequence } from '@movies-and-mail/store-kit'
import {
  firstIdAt,
  type ListOptions,
  type MailLog,
  recordIds,
  type Stored,
} from '../../ports/mail-log.js'
import type { LogName } from './mail-records-table.js'
import type { MailState } from './mail-state.js'

const dayMs = 86_400_000

export type DurableMailLogOptions = {
  /** Which of the object's logs. */
  log: LogName
  /** Days a record is kept: older ones go as new ones come; kept for good when unset. */
  retentionDays?: number | undefined
  /** Where proposed `_id`s come from; tests pass their own to make records of another time. */
  ids?: Pick<SortableIdSequence, 'next'>
}

/**
 * A log (the mail log or the outbox) in the mail state object (`mail-state-object.ts`), shared
 * by every isolate and kept across restarts. The object is the log's one writer: it keeps the
 * `_id` this isolate proposes unless it does not sort after the log's newest, so pages newest
 * first are in the order the object stored the records. A page is one indexed read of `limit`
 * rows, of one owner's when asked (`MailRecordsTable`); with `retentionDays`, the records past
 * it go in the transaction of each insert.
 * @example new DurableMailLog<MailLogEntry>(new MailState(env.MAIL_STATE), { log: 'maillog' })
 */
export class DurableMailLog<T extends object> implements MailLog<T> {
  readonly #state: MailState
  readonly #log: LogName
  readonly #retentionMs: number | undefined
  readonly #ids: Pick<SortableIdSequence, 'next'>

  constructor(state: MailState, { log, retentionDays, ids = recordIds }: DurableMailLogOptions) {
    this.#state = state
    this.#log = log
    this.#retentionMs = retentionDays === undefined ? undefined : retentionDays * dayMs
    this.#ids = ids
  }

  async insert(record: T, owner?: string): Promise<Stored<T>> {
    const json = JSON.stringify(record)
    const proposed = this.#ids.next()
    const keepFrom =
      this.#retentionMs === undefined
        ? undefined
        : firstIdAt(new Date(Date.now() - this.#retentionMs))
    const id = await this.#state.call((object) =>
      object.insertRecord(this.#log, proposed, json, keepFrom, owner),
    )
    return { ...record, _id: id }
  }

  async list({ limit, before, owner }: ListOptions): Promise<Stored<T>[]> {
    const rows = await this.#state.call((object) =>
      object.listRecords(this.#log, limit, before, owner),
    )
    return rows.map(({ id, json }) => ({ ...(JSON.parse(json) as T), _id: id }))
  }

  prune(olderThan: Date): Promise<number> {
    const firstKept = firstIdAt(olderThan)
    return this.#state.call((object) => object.pruneRecords(this.#log, firstKept))
  }

  ping(): Promise<void> {
    return this.#state.call((object) => object.ping())
  }

  async close(): Promise<void> {}
}
