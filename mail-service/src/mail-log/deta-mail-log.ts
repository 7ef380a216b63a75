import { Deta } from 'deta'
import { type MailLog, recordIds, type Stored } from './mail-log.js'

type DetaBase = ReturnType<ReturnType<typeof Deta>['Base']>
type DetaItem = Record<string, unknown> & { key: string }

const pageSize = 1000

/**
 * Keeps records in a Deta Base through the `deta` SDK; the record's `_id` is the Base key.
 * `host` is any Deta-Base-compatible host: it is passed to the SDK explicitly because the
 * SDK's browser build, which a Worker bundle gets, ignores `DETA_BASE_HOST`.
 * @example new DetaMailLog({ projectKey, host: 'base.example.com', baseName: 'maillog' })
 */
export class DetaMailLog<T extends object> implements MailLog<T> {
  #base: DetaBase

  constructor({
    projectKey,
    host,
    baseName,
  }: { projectKey: string; host: string; baseName: string }) {
    this.#base = Deta(projectKey).Base(baseName, host)
  }

  async insert(record: T): Promise<Stored<T>> {
    const item = (await this.#base.insert(
      record as Record<string, never>,
      recordIds.next(),
    )) as DetaItem
    return fromItem<T>(item)
  }

  /**
   * Reads every page and sorts by key here as well: a compatible host that ignores the
   * requested order still yields newest first.
   */
  async list({ limit }: { limit: number }): Promise<Stored<T>[]> {
    const items: DetaItem[] = []
    let last: string | undefined
    do {
      const page = await this.#base.fetch([], { limit: pageSize, last, desc: true })
      items.push(...(page.items as DetaItem[]))
      last = page.last
    } while (last)
    items.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0))
    return items.slice(0, limit).map((item) => fromItem<T>(item))
  }

  async ping(): Promise<void> {
    await this.#base.fetch([], { limit: 1 })
  }

  async close(): Promise<void> {}
}

function fromItem<T>(item: DetaItem): Stored<T> {
  const { key, ...fields } = item
  return { ...fields, _id: key } as Stored<T>
}
