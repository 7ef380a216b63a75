import { join } from 'node:path'
import { EmbeddedEnv, StoreDamagedError } from '@movies-and-mail/embedded-store'
import { SortableIdSequence } from '@movies-and-mail/http-kit'
import type { Database } from 'lmdb'
import { ChangeFeed } from '../change-feed.js'
import {
  type CachedItems,
  type IfMatch,
  type ItemFields,
  type ItemPage,
  type ItemQuery,
  type ItemStore,
  ifMatchAllows,
  type NewItem,
  type Refused,
  type TaggedJson,
  type Written,
} from '../item-store.js'
import { JsonListCache } from './json-list-cache.js'
import { importNedbOnce } from './nedb-import.js'
import { QueryInMemory } from './query-in-memory.js'

const utf8 = new TextDecoder()

/** What a write stores, and what it changes in memory once it is durable. */
type WritePlan = { bytes: number; writes: () => void; apply: () => void }
type Why = Refused<'not-found' | 'stale' | 'duplicate-id'>['why']

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
  readonly #queries = new QueryInMemory()
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

  async list(): Promise<TaggedJson> {
    return this.cached.list()
  }

  async find(id: string): Promise<TaggedJson | null> {
    return this.cached.find(id)
  }

  async query(query: ItemQuery): Promise<ItemPage> {
    return this.#queries.run(this.cached.list(), query)
  }

  insert(item: NewItem): Promise<Written | Refused<'duplicate-id'>> {
    return this.#write([item.id], () => {
      if (this.#keyById.has(item.id)) return refused('duplicate-id', item.id)
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

  update(
    id: string,
    fields: ItemFields,
    ifMatch?: IfMatch,
  ): Promise<Written | Refused<'not-found' | 'stale' | 'duplicate-id'>> {
    const newId = fields.id ?? id
    return this.#write([id, newId], () => {
      const key = this.#keyById.get(id)
      const current = key === undefined ? undefined : this.#cache.get(key)
      if (key === undefined || current === undefined) return refused('not-found', id)
      if (!ifMatchAllows(ifMatch, this.#cache.tagOf(key) as string)) return refused('stale', id)
      if (newId !== id && this.#keyById.has(newId)) return refused('duplicate-id', newId)
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

  remove(id: string, ifMatch?: IfMatch): Promise<Written | Refused<'not-found' | 'stale'>> {
    return this.#write([id], () => {
      const key = this.#keyById.get(id)
      const current = key === undefined ? undefined : this.#cache.get(key)
      if (key === undefined || current === undefined) return refused('not-found', id)
      if (!ifMatchAllows(ifMatch, this.#cache.tagOf(key) as string)) return refused('stale', id)
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
   * state (or refuses), the engine commits, memory follows, and the list is answered as the
   * write left it.
   */
  async #write<R extends Refused<Why>>(
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
      return { ok: true, list: this.cached.list() }
    } finally {
      for (const id of ids) if (this.#busy.get(id) === done) this.#busy.delete(id)
    }
  }

  /** Commits a plan; the engine's errors (StoreFullError, StoreUnavailableError) pass as they are. */
  async #commit({ bytes, writes, apply }: WritePlan): Promise<void> {
    try {
      await this.#env.commit(bytes, writes)
    } catch (error) {
      this.#lastWriteFailed = true
      throw error
    }
    this.#lastWriteFailed = false
    apply()
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

/** A write refused before anything was stored. */
function refused<W extends Why>(why: W, id: string): Refused<W> {
  return { ok: false, why, id }
}
