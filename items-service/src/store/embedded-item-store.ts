import { join } from 'node:path'
import {
  EmbeddedEnv,
  NoSpaceError,
  StorageWriteError,
  StoreDamagedError,
} from '@movies-and-mail/embedded-store'
import { SortableIdSequence } from '@movies-and-mail/http-kit'
import type { Database } from 'lmdb'
import type { Item, ItemFields } from '../items/item.schema.js'
import { ChangeFeed } from './change-feed.js'
import {
  type CachedItems,
  DuplicateIdError,
  type ItemPage,
  type ItemQuery,
  type ItemStore,
  PreconditionFailedError,
  StoreFullError,
  StoreUnavailableError,
  type TaggedJson,
  type WriteCondition,
} from './item-store.js'
import { JsonListCache } from './json-list-cache.js'
import { JsonListQuery } from './json-list-query.js'
import { importNedbOnce } from './nedb-import.js'

const utf8 = new TextDecoder()

/** What a write stores, and what it changes in memory once it is durable. */
type WritePlan = { bytes: number; writes: () => void; apply: () => void }

/**
 * The default store: LMDB under `dataDir` (see `@movies-and-mail/embedded-store`), one item a
 * record keyed by `_id` (sortable, so key order is insertion order), and an index from `id` to
 * `_id`. A write resolves once its transaction is committed and synced.
 *
 * This process owns the directory, so the store also keeps the list's JSON in memory, updated
 * when a write is durable: a read serialises nothing, a write serialises only its item. Writes
 * that touch the same `id` run one after another; the others share the engine's transactions.
 */
export class EmbeddedItemStore implements ItemStore {
  /** What opening the store did that its user should hear of (an import, a skipped line). */
  readonly notices: string[]
  readonly #env: EmbeddedEnv
  readonly #items: Database<Uint8Array, string>
  readonly #keys: Database<string, string>
  readonly #ids = new SortableIdSequence()
  readonly #cache: JsonListCache
  /** `_id` by public `id`, as durable. */
  readonly #keyById = new Map<string, string>()
  /** The write in flight for each `id` it touches. */
  readonly #busy = new Map<string, Promise<unknown>>()
  #lastWriteFailed = false
  readonly #queries = new JsonListQuery()
  /** Every write, once durable; this process is the directory's only writer. */
  readonly changes = new ChangeFeed()

  private constructor(env: EmbeddedEnv, collection: string, notices: string[]) {
    this.#env = env
    this.notices = notices
    this.#items = env.database(collection)
    this.#keys = env.database<string>(`${collection}.ids`, 'string')
    this.#cache = new JsonListCache(this.#checkedItems())
    for (const { key: id, value: key } of this.#keys.getRange()) {
      if (this.#cache.get(key) === undefined) this.#damaged(`id '${id}' names no item`)
      this.#keyById.set(id, key)
    }
    if (this.#keyById.size !== this.#items.getCount()) this.#damaged('items without an id')
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

  readonly cached: CachedItems = {
    list: () => ({ body: this.#cache.bytes(), etag: this.#cache.listTag() }),
    find: (id) => {
      const key = this.#keyById.get(id)
      const body = key === undefined ? undefined : this.#cache.get(key)
      if (key === undefined || body === undefined) return null
      return { body, etag: this.#cache.tagOf(key) as string }
    },
  }

  async list(): Promise<Uint8Array> {
    return this.#cache.bytes()
  }

  async find(id: string): Promise<Uint8Array | null> {
    return this.cached.find(id)?.body ?? null
  }

  async listTagged(): Promise<TaggedJson> {
    return this.cached.list()
  }

  async findTagged(id: string): Promise<TaggedJson | null> {
    return this.cached.find(id)
  }

  async query(query: ItemQuery): Promise<ItemPage> {
    return this.#queries.run(this.cached.list(), query)
  }

  async insert(item: Item): Promise<void> {
    await this.#write([item.id], () => {
      if (this.#keyById.has(item.id)) throw new DuplicateIdError(item.id)
      const key = this.#ids.next()
      const json = Buffer.from(JSON.stringify({ _id: key, ...item }))
      return {
        bytes: json.length,
        writes: () => {
          this.#items.put(key, json)
          this.#keys.put(item.id, key)
        },
        apply: () => {
          this.#keyById.set(item.id, key)
          this.#cache.append(key, json)
          this.changes.publish('created', json)
        },
      }
    })
  }

  async update(id: string, fields: ItemFields, condition?: WriteCondition): Promise<boolean> {
    const newId = fields.id ?? id
    return this.#write([id, newId], () => {
      const key = this.#keyById.get(id)
      const current = key === undefined ? undefined : this.#cache.get(key)
      if (key === undefined || current === undefined) return null
      this.#check(id, key, condition)
      if (newId !== id && this.#keyById.has(newId)) throw new DuplicateIdError(newId)
      const json = Buffer.from(JSON.stringify({ ...JSON.parse(utf8.decode(current)), ...fields }))
      return {
        bytes: json.length,
        writes: () => {
          this.#items.put(key, json)
          if (newId === id) return
          this.#keys.remove(id)
          this.#keys.put(newId, key)
        },
        apply: () => {
          this.#cache.replace(key, json)
          this.#keyById.delete(id)
          this.#keyById.set(newId, key)
          this.changes.publish('updated', json)
        },
      }
    })
  }

  async remove(id: string, condition?: WriteCondition): Promise<boolean> {
    return this.#write([id], () => {
      const key = this.#keyById.get(id)
      const current = key === undefined ? undefined : this.#cache.get(key)
      if (key === undefined || current === undefined) return null
      this.#check(id, key, condition)
      return {
        bytes: 0,
        writes: () => {
          this.#items.remove(key)
          this.#keys.remove(id)
        },
        apply: () => {
          this.#keyById.delete(id)
          this.#cache.remove(key)
          // A copy: `current` may be a view of the whole list, which the feed would keep alive.
          this.changes.publish('deleted', Buffer.from(current))
        },
      }
    })
  }

  /** Resolves while writes succeed; after a failed one, only once a probe write succeeds. */
  async ping(): Promise<void> {
    if (!this.#lastWriteFailed) return
    const probes = this.#env.database<string>('health', 'string')
    await this.#commit({
      bytes: 32,
      writes: () => probes.put('last-probe', new Date().toISOString()),
      apply: () => {},
    })
  }

  async close(): Promise<void> {
    this.changes.end()
    await Promise.allSettled(this.#busy.values())
    await this.#env.close()
  }

  /**
   * Runs one write once no other write touching `ids` is in flight: `plan` decides on the durable
   * state (null: nothing to do), the engine commits, and memory follows. @returns false for null
   */
  async #write(ids: string[], plan: () => WritePlan | null): Promise<boolean> {
    while (ids.some((id) => this.#busy.has(id))) {
      await Promise.allSettled(ids.map((id) => this.#busy.get(id)))
    }
    const decided = plan()
    if (decided === null) return false
    const done = this.#commit(decided)
    for (const id of ids) this.#busy.set(id, done)
    try {
      await done
      return true
    } finally {
      for (const id of ids) if (this.#busy.get(id) === done) this.#busy.delete(id)
    }
  }

  async #commit({ bytes, writes, apply }: WritePlan): Promise<void> {
    try {
      await this.#env.commit(bytes, writes)
    } catch (error) {
      this.#lastWriteFailed = true
      if (error instanceof NoSpaceError) throw new StoreFullError({ cause: error })
      if (error instanceof StorageWriteError) throw new StoreUnavailableError({ cause: error })
      throw error
    }
    this.#lastWriteFailed = false
    apply()
  }

  /** Refuses the write when its `If-Match` does not name the item's current tag. */
  #check(id: string, key: string, condition: WriteCondition | undefined): void {
    if (condition && !condition(this.#cache.tagOf(key) as string)) {
      throw new PreconditionFailedError(id)
    }
  }

  /** Every stored item in `_id` order, each checked to be a JSON object, as the cache loads. */
  *#checkedItems(): Generator<[string, Uint8Array]> {
    let last = ''
    for (const { key, value } of this.#items.getRange()) {
      if (value[0] !== 0x7b || value[value.length - 1] !== 0x7d) {
        this.#damaged(`item ${key} is not a JSON object`)
      }
      last = key
      yield [key, value]
    }
    this.#ids.observe(last)
  }

  #damaged(reason: string): never {
    throw new StoreDamagedError(this.#env.file, reason)
  }
}
