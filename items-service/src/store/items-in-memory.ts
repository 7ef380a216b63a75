import { SortableIdSequence } from '@movies-and-mail/store-kit'
import { ChangeFeed } from './change-feed.js'
import {
  type IfMatch,
  type Item,
  type ItemFields,
  type ItemPage,
  type ItemQuery,
  ifMatchAllows,
  type NewItem,
  ownerAllows,
  type RefusalReason,
  type Refused,
  type RemoveRefusal,
  type Restored,
  refusedWrite,
  type TaggedJson,
  type TaggedList,
  type Usage,
} from './item-store.js'
import { type JoinedItems, JsonListCache } from './json-list-cache.js'
import { QueryInMemory } from './query-in-memory.js'

const utf8 = new TextDecoder()

/** An engine's records, as a write changes them inside one of the engine's transactions. */
export interface ItemRecords {
  /** Stores an item's JSON under its key and indexes its id (the index of `formerId` goes). */
  put(key: string, id: string, json: Uint8Array, formerId?: string): void
  /** Removes the item under `key` and its id's index entry. */
  remove(key: string, id: string): void
}

/**
 * A write decided against the items as they are: what it stores (`store`, run by the engine in
 * its transaction), how many bytes that is, and what memory does once it is durable (`apply`).
 */
export type WritePlan = {
  bytes: number
  store: (records: ItemRecords) => void
  apply: () => void
}

/**
 * Every item of a store that is its collection's only writer (the embedded store in its process,
 * the Durable Object in its object), held in memory as the list's JSON: reads serialise
 * nothing, a write serialises only its item, and queries run over the list parsed once per
 * change. It plans each write against what is durable (refusing a duplicate id, a missing item,
 * a stale `If-Match`) and follows it once the engine has committed it, publishing it to the
 * change feed. The engine owns durability; this owns what the items are.
 */
export class ItemsInMemory {
  /** Every write, once durable. */
  readonly changes: ChangeFeed
  readonly #cache: JsonListCache
  /** `_id` by public `id`, as durable. */
  readonly #keyById = new Map<string, string>()
  readonly #ids = new SortableIdSequence()
  readonly #queries = new QueryInMemory()

  /**
   * Starts from the stored items in key (`_id`, so insertion) order, one at a time or already
   * joined as the list (`JoinedItems`), and each id's key, from the engine's index of ids.
   * @throws Error naming what does not fit, for the engine to report its file as damaged
   */
  constructor(
    items: Iterable<[key: string, json: Uint8Array]> | JoinedItems,
    ids: Iterable<[string, string]>,
    /** The feed of the items these replace (after a restore): its followers stay. */
    changes = new ChangeFeed(),
  ) {
    this.changes = changes
    let last = ''
    const loaded = this.#keyById
    if ('list' in items) {
      this.#cache = JsonListCache.joined(items)
      last = items.lengths.at(-1)?.[0] ?? ''
    } else {
      this.#cache = new JsonListCache(
        (function* checked() {
          for (const [key, json] of items) {
            if (json[0] !== 0x7b || json[json.length - 1] !== 0x7d) {
              throw new Error(`item ${key} is not a JSON object`)
            }
            last = key
            yield [key, json] as [string, Uint8Array]
          }
        })(),
      )
    }
    this.#ids.observe(last)
    for (const [id, key] of ids) {
      if (!this.#cache.has(key)) throw new Error(`id '${id}' names no item`)
      loaded.set(id, key)
    }
    if (this.#keyById.size !== this.#cache.size) throw new Error('items without an id')
  }

  /**
   * The list's JSON and tag, now: nothing is serialised, and nothing copied but once per version
   * where items are appended in place (`JsonListCache.shared`).
   */
  list(): TaggedJson {
    return { body: this.#cache.bytes(), etag: this.#cache.listTag() }
  }

  /**
   * The list's JSON as one `Blob` made once per version (bytes for a large list), and its tag:
   * what a Worker's object answers, which the runtime sends without copying it again.
   */
  sharedList(): TaggedList {
    return { body: this.#cache.shared(), etag: this.#cache.listTag() }
  }

  /** The item's JSON and tag, now, or null. */
  find(id: string): TaggedJson | null {
    const key = this.#keyById.get(id)
    return (key !== undefined && this.#cache.tagged(key)) || null
  }

  usage(): Usage {
    return { items: this.#keyById.size, bytes: this.#cache.byteLength }
  }

  query(query: ItemQuery): ItemPage {
    return this.#queries.run(this.list(), query)
  }

  planInsert(item: NewItem): WritePlan | Refused<'duplicate-id'> {
    if (this.#keyById.has(item.id)) return refusedWrite('duplicate-id', item.id)
    const key = this.#ids.next()
    const json = Buffer.from(JSON.stringify({ _id: key, ...item }))
    return {
      bytes: json.length,
      store: (records) => records.put(key, item.id, json),
      apply: () => {
        this.#keyById.set(item.id, key)
        this.#cache.append(key, json)
        this.changes.publish('created', json)
      },
    }
  }

  planUpdate(
    id: string,
    fields: ItemFields,
    ifMatch?: IfMatch,
    by?: string,
  ): WritePlan | Refused<RefusalReason> {
    const key = this.#keyById.get(id)
    const current = key === undefined ? undefined : this.#cache.get(key)
    if (key === undefined || current === undefined) return refusedWrite('not-found', id)
    const stored = JSON.parse(utf8.decode(current))
    if (!ownerAllows(by, stored._owner)) return refusedWrite('not-owner', id)
    if (!ifMatchAllows(ifMatch, this.#cache.tagOf(key) as string)) return refusedWrite('stale', id)
    const newId = fields.id ?? id
    if (newId !== id && this.#keyById.has(newId)) return refusedWrite('duplicate-id', newId)
    const json = Buffer.from(JSON.stringify({ ...stored, ...fields }))
    return {
      bytes: json.length,
      store: (records) => records.put(key, newId, json, newId === id ? undefined : id),
      apply: () => {
        this.#cache.replace(key, json)
        this.#keyById.delete(id)
        this.#keyById.set(newId, key)
        this.changes.publish('updated', json)
      },
    }
  }

  /**
   * What `ItemStore.restore` stores: each item under its own `_id`, an item of a known id left
   * out or, with `replace`, put in that item's place. Memory is not followed but rebuilt by the
   * engine from what it stored, since restored items may fall anywhere in the key order.
   */
  planRestore(items: readonly Item[], replace: boolean): { plan: WritePlan; restored: Restored } {
    const restored: Restored = { added: 0, replaced: 0, skipped: 0 }
    const writes: ((records: ItemRecords) => void)[] = []
    let bytes = 0
    for (const item of items) {
      const existing = this.#keyById.get(item.id)
      if (existing !== undefined && !replace) {
        restored.skipped += 1
        continue
      }
      const json = Buffer.from(JSON.stringify(item))
      bytes += json.length
      writes.push((records) => {
        if (existing !== undefined) records.remove(existing, item.id)
        records.put(item._id, item.id, json)
      })
      if (existing === undefined) restored.added += 1
      else restored.replaced += 1
    }
    const plan: WritePlan = {
      bytes,
      store: (records) => {
        for (const write of writes) write(records)
      },
      apply: () => {},
    }
    return { plan, restored }
  }

  planRemove(id: string, ifMatch?: IfMatch, by?: string): WritePlan | Refused<RemoveRefusal> {
    const key = this.#keyById.get(id)
    const current = key === undefined ? undefined : this.#cache.get(key)
    if (key === undefined || current === undefined) return refusedWrite('not-found', id)
    // Only a user's remove reads the item: the key's stays a lookup.
    if (by !== undefined && !ownerAllows(by, JSON.parse(utf8.decode(current))._owner)) {
      return refusedWrite('not-owner', id)
    }
    if (!ifMatchAllows(ifMatch, this.#cache.tagOf(key) as string)) return refusedWrite('stale', id)
    return {
      bytes: 0,
      store: (records) => records.remove(key, id),
      apply: () => {
        this.#keyById.delete(id)
        this.#cache.remove(key)
        // A copy: `current` may be a view of the whole list, which the feed would keep alive.
        this.changes.publish('deleted', Buffer.from(current))
      },
    }
  }
}
