import { join } from 'node:path'
import { EmbeddedEnv, StoreDamagedError } from '@movies-and-mail/embedded-store'
import type { Database } from 'lmdb'
import type { ChangeFeed } from '../change-feed.js'
import type {
  IfMatch,
  Item,
  ItemFields,
  ItemPage,
  ItemQuery,
  ItemStore,
  NewItem,
  RefusalReason,
  Refused,
  RemoveRefusal,
  Restored,
  TaggedJson,
  Usage,
  Written,
} from '../item-store.js'
import { type ItemRecords, ItemsInMemory, type WritePlan } from '../items-in-memory.js'
import { importNedbOnce } from './nedb-import.js'

/**
 * The default store on Node: LMDB under `dataDir` (see `@movies-and-mail/embedded-store`), one
 * item a record keyed by `_id` (sortable, so key order is insertion order), and an index from
 * `id` to `_id`. A write resolves once its transaction is committed and synced. This process
 * owns the directory, so the items are also held in memory (`ItemsInMemory`) and reads are
 * answered from there. Writes that touch the same `id` run one after another; the others share
 * the engine's transactions.
 */
export class EmbeddedItemStore implements ItemStore {
  /** What opening the store did that its user should hear of (an import, a skipped line). */
  readonly notices: string[]
  readonly #env: EmbeddedEnv
  readonly #load: (changes?: ChangeFeed) => ItemsInMemory
  #items: ItemsInMemory
  readonly #records: ItemRecords
  /** The write in flight for each `id` it touches. */
  readonly #busy = new Map<string, Promise<unknown>>()

  private constructor(env: EmbeddedEnv, collection: string, notices: string[]) {
    this.#env = env
    this.notices = notices
    const items: Database<Uint8Array, string> = env.database(collection)
    const keys: Database<string, string> = env.database<string>(`${collection}.ids`, 'string')
    this.#load = (changes) => {
      try {
        return new ItemsInMemory(
          (function* () {
            for (const { key, value } of items.getRange()) yield [key, value]
          })(),
          (function* () {
            for (const { key: id, value: key } of keys.getRange()) yield [id, key]
          })(),
          changes,
        )
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        throw new StoreDamagedError(env.file, reason)
      }
    }
    this.#items = this.#load()
    this.#records = {
      put: (key, id, json, formerId) => {
        items.put(key, json)
        if (formerId !== undefined) keys.remove(formerId)
        keys.put(id, key)
      },
      remove: (key, id) => {
        items.remove(key)
        keys.remove(id)
      },
    }
  }

  /** Opens (or creates) the store for `collection` in `dataDir`. */
  static async open(dataDir: string, collection = 'movies'): Promise<EmbeddedItemStore> {
    const env = await EmbeddedEnv.open(dataDir, 'items-service')
    try {
      const notices = await importNedbOnce(env, collection, join(dataDir, `${collection}.db`))
      return new EmbeddedItemStore(env, collection, notices)
    } catch (error) {
      await env.close()
      throw error
    }
  }

  get changes(): ChangeFeed {
    return this.#items.changes
  }

  list(): TaggedJson {
    return this.#items.list()
  }

  async usage(): Promise<Usage> {
    return this.#items.usage()
  }

  find(id: string): TaggedJson | null {
    return this.#items.find(id)
  }

  async query(query: ItemQuery): Promise<ItemPage> {
    return this.#items.query(query)
  }

  insert(item: NewItem): Promise<Written | Refused<'duplicate-id'>> {
    return this.#write([item.id], () => this.#items.planInsert(item))
  }

  update(
    id: string,
    fields: ItemFields,
    ifMatch?: IfMatch,
    by?: string,
  ): Promise<Written | Refused<RefusalReason>> {
    return this.#write([id, fields.id ?? id], () => this.#items.planUpdate(id, fields, ifMatch, by))
  }

  remove(id: string, ifMatch?: IfMatch, by?: string): Promise<Written | Refused<RemoveRefusal>> {
    return this.#write([id], () => this.#items.planRemove(id, ifMatch, by))
  }

  async restore(items: readonly Item[], { replace }: { replace: boolean }): Promise<Restored> {
    // After every write in flight: the plan is made against what is durable.
    await Promise.allSettled(this.#busy.values())
    const { plan, restored } = this.#items.planRestore(items, replace)
    await this.#commit(plan)
    this.#items = this.#load(this.#items.changes)
    this.#items.changes.reload('the items were restored from a file; read the list again')
    return restored
  }

  /** Resolves while commits succeed; after a failed one, only once a probe commit of as much room does. */
  async ping(): Promise<void> {
    await this.#env.probe()
  }

  async close(): Promise<void> {
    this.#items.changes.end()
    await Promise.allSettled(this.#busy.values())
    await this.#env.close()
  }

  /**
   * Runs one write once no other write touching `ids` is in flight: `plan` decides on the durable
   * state (or refuses), the engine commits, memory follows, and the list is answered as the
   * write left it.
   */
  async #write<R extends Refused<RefusalReason>>(
    ids: string[],
    plan: () => WritePlan | R,
  ): Promise<Written | R> {
    while (ids.some((id) => this.#busy.has(id))) {
      await Promise.allSettled(ids.map((id) => this.#busy.get(id)))
    }
    const decided = plan()
    if ('why' in decided) return decided
    const done = this.#commit(decided)
    for (const id of ids) this.#busy.set(id, done)
    try {
      await done
      return { ok: true, list: this.#items.list() }
    } finally {
      for (const id of ids) if (this.#busy.get(id) === done) this.#busy.delete(id)
    }
  }

  /** Commits a plan; the engine's errors (StoreFullError, StoreUnavailableError) pass as they are. */
  async #commit({ bytes, store, apply }: WritePlan): Promise<void> {
    await this.#env.commit(bytes, () => store(this.#records))
    apply()
  }
}
