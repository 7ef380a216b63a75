import type { DurableObjectStorage, SqlStorage } from '@cloudflare/workers-types'
import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
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
  TaggedList,
  Usage,
  Written,
} from '../item-store.js'
import { type ItemRecords, ItemsInMemory, type WritePlan } from '../items-in-memory.js'
import { type Batch, readStoredItems } from './stored-items.js'

const utf8 = new TextDecoder()

/**
 * The default store on the Workers runtime: the items of one collection in the SQLite storage
 * of the collection's Durable Object, one row an item keyed by its `_id` (sortable, so key order
 * is insertion order) with a unique `id`. The object is the collection's only writer and runs
 * one event at a time, so the items are held in memory as on Node (`ItemsInMemory`) and reads
 * are answered from there; a write runs in one storage transaction, and the runtime sends no
 * answer of the object before its writes are durable.
 */
export class DurableItemStore implements ItemStore {
  readonly #storage: DurableObjectStorage
  readonly #load: (changes?: ChangeFeed) => ItemsInMemory
  #items: ItemsInMemory
  readonly #records: ItemRecords

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage
    const sql: SqlStorage = storage.sql
    sql.exec(
      'CREATE TABLE IF NOT EXISTS items (key TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, json TEXT NOT NULL)',
    )
    this.#load = (changes) => {
      const { items, ids } = readStoredItems((query, ...bindings) =>
        sql.exec<Batch>(query, ...bindings).one(),
      )
      return new ItemsInMemory(items, ids, changes)
    }
    this.#items = this.#load()
    this.#records = {
      put: (key, id, json) => {
        sql.exec(
          'INSERT INTO items (key, id, json) VALUES (?, ?, ?) ' +
            'ON CONFLICT (key) DO UPDATE SET id = excluded.id, json = excluded.json',
          key,
          id,
          utf8.decode(json),
        )
      },
      remove: (key) => {
        sql.exec('DELETE FROM items WHERE key = ?', key)
      },
    }
  }

  get changes(): ChangeFeed {
    return this.#items.changes
  }

  async list(): Promise<TaggedList> {
    return this.#items.sharedList()
  }

  async usage(): Promise<Usage> {
    return this.#items.usage()
  }

  async find(id: string): Promise<TaggedJson | null> {
    return this.#items.find(id)
  }

  async query(query: ItemQuery): Promise<ItemPage> {
    return this.#items.query(query)
  }

  async insert(item: NewItem): Promise<Written | Refused<'duplicate-id'>> {
    return this.#write(this.#items.planInsert(item))
  }

  async update(
    id: string,
    fields: ItemFields,
    ifMatch?: IfMatch,
    by?: string,
  ): Promise<Written | Refused<RefusalReason>> {
    return this.#write(this.#items.planUpdate(id, fields, ifMatch, by))
  }

  async remove(
    id: string,
    ifMatch?: IfMatch,
    by?: string,
  ): Promise<Written | Refused<RemoveRefusal>> {
    return this.#write(this.#items.planRemove(id, ifMatch, by))
  }

  async restore(items: readonly Item[], { replace }: { replace: boolean }): Promise<Restored> {
    const { plan, restored } = this.#items.planRestore(items, replace)
    this.#write(plan)
    this.#items = this.#load(this.#items.changes)
    this.#items.changes.reload('the items were restored from a file; read the list again')
    return restored
  }

  async ping(): Promise<void> {
    this.#storage.sql.exec('SELECT 1')
  }

  async close(): Promise<void> {
    this.#items.changes.end()
  }

  /**
   * Runs a plan's statements in one transaction, then lets memory follow; answers the list as it
   * left it. A plan of one statement (a create, an update, a delete) runs it alone: SQLite
   * applies a statement whole or not at all, and a transaction around it would only add its two
   * statements of bookkeeping to every write.
   */
  #write<R extends Refused<RefusalReason>>(plan: WritePlan | R): Written | R {
    if ('why' in plan) return plan
    const statements: (() => void)[] = []
    const records = this.#records
    plan.store({
      put: (key, id, json) => statements.push(() => records.put(key, id, json)),
      remove: (key, id) => statements.push(() => records.remove(key, id)),
    })
    try {
      if (statements.length === 1) statements[0]?.()
      else
        this.#storage.transactionSync(() => {
          for (const run of statements) run()
        })
    } catch (error) {
      // SQLITE_FULL: the object's storage limit; anything else, the storage did not take it.
      if (/SQLITE_FULL|storage limit/i.test(String(error))) {
        throw new StoreFullError(undefined, { cause: error })
      }
      throw new StoreUnavailableError('the store could not write', { cause: error })
    }
    plan.apply()
    return { ok: true, list: this.#items.sharedList() }
  }
}
