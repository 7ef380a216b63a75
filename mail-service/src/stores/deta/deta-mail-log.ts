import { Deta } from 'deta'
import { type ListOptions, type MailLog, recordIds, type Stored } from '../../ports/mail-log.js'

type DetaBase = ReturnType<ReturnType<typeof Deta>['Base']>
type DetaItem = Record<string, unknown> & { key: string }

const pageSize = 1000
const secondsPerDay = 86_400

export type DetaMailLogOptions = {
  projectKey: string
  /** Any Deta-Base-compatible host, e.g. `database.deta.sh`. */
  host: string
  baseName: string
  /** Days the Base keeps each record (its own expiry, `__expires`); kept for good when unset. */
  retentionDays?: number | undefined
}

/**
 * Keeps records in a Deta Base through the `deta` SDK; the record's `_id` is the Base key, its
 * owner the item's field `owner`.
 * `host` is any Deta-Base-compatible host: it is passed to the SDK explicitly because the
 * SDK's browser build, which a Worker bundle gets, ignores `DETA_BASE_HOST`.
 * Retention is the Base's own: each insert carries `expireIn` (the SDK sends `__expires`).
 * @example new DetaMailLog({ projectKey, host: 'base.example.com', baseName: 'maillog' })
 */
export class DetaMailLog<T extends object> implements MailLog<T> {
  readonly #base: DetaBase
  readonly #expireIn: number | undefined

  constructor({ projectKey, host, baseName, retentionDays }: DetaMailLogOptions) {
    this.#base = Deta(projectKey).Base(baseName, host)
    this.#expireIn = retentionDays === undefined ? undefined : retentionDays * secondsPerDay
  }

  async insert(record: T, owner?: string): Promise<Stored<T>> {
    const item = (await this.#base.insert(
      (owner === undefined ? record : { ...record, owner }) as Record<string, never>,
      recordIds.next(),
      this.#expireIn === undefined ? undefined : { expireIn: this.#expireIn },
    )) as DetaItem
    return fromItem<T>(item)
  }

  /**
   * Costs a read of the records the page may come from, one request per 1,000, for every page:
   * those of `owner`, which the Base selects by its query on the field, or, for an admin's
   * list, the whole Base. A compatible host may ignore the requested order, so no request can
   * be known to be the last that matters.
   * Only the records before `before` are kept, and no more than twice `limit` of them at once
   * (the newest are selected as they come, O(n log limit)), so memory follows `limit`, not the
   * Base's size.
   */
  async list({ limit, before, owner }: ListOptions): Promise<Stored<T>[]> {
    const query = owner === undefined ? [] : [{ owner }]
    let kept: DetaItem[] = []
    let last: string | undefined
    do {
      const page = await this.#base.fetch(query, { limit: pageSize, last, desc: true })
      for (const item of page.items as DetaItem[]) {
        if (before !== undefined && item.key >= before) continue
        kept.push(item)
        if (kept.length >= 2 * limit) kept = newest(kept, limit)
      }
      last = page.last
    } while (last)
    return newest(kept, limit).map((item) => fromItem<T>(item))
  }

  /**
   * Removes nothing and resolves 0: the Base deletes each record itself once its `__expires`
   * passes, and deleting here would cost a read of the whole Base and a request per record.
   * Records inserted without `retentionDays` are kept.
   */
  async prune(_olderThan: Date): Promise<number> {
    return 0
  }

  async ping(): Promise<void> {
    await this.#base.fetch([], { limit: 1 })
  }

  async close(): Promise<void> {}
}

/** The `limit` items of highest key, highest first. */
function newest(items: DetaItem[], limit: number): DetaItem[] {
  return items.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0)).slice(0, limit)
}

/**
 * The record as it was given: the key becomes `_id`; the owner and the Base's expiry stay in
 * the Base.
 */
function fromItem<T>(item: DetaItem): Stored<T> {
  const { key, __expires: _expires, owner: _owner, ...fields } = item
  return { ...fields, _id: key } as Stored<T>
}
