import { StoreFullError } from '@movies-and-mail/store-kit'
import type { ItemFields, ItemStore, NewItem } from './item-store.js'

/** How much a collection may hold: ITEMS_MAX_COUNT and ITEMS_MAX_BYTES. */
export type Bounds = { maxItems: number; maxBytes: number }

const encoder = new TextEncoder()

/**
 * `store` with its collection bounded: a create past `maxItems`, or a create or an update that
 * would take the items past `maxBytes`, throws StoreFullError (507) before anything is written,
 * saying which bound and how to make room. Every write answers the whole list, so an unbounded
 * collection makes every write, and every read of the list, as large as anyone has made it.
 * Checked against the store's `usage()` before each write, with the writes of this process in
 * flight counted in: concurrent creates from other processes sharing MongoDB may pass a bound
 * by as many as run at once.
 */
export function withBounds(store: ItemStore, { maxItems, maxBytes }: Bounds): ItemStore {
  /** The items and bytes of this process's writes not yet answered. */
  const pending = { items: 0, bytes: 0 }

  async function reserve(items: number, bytes: number): Promise<() => void> {
    const usage = await store.usage()
    if (items > 0 && usage.items + pending.items + items > maxItems) {
      // Under load the room is taken by writes not yet stored: the answer counts them too.
      const inFlight = pending.items > 0 ? ` (${pending.items} of them being written)` : ''
      throw new StoreFullError(
        `the collection holds ${usage.items + pending.items} items${inFlight}, ` +
          `the most ITEMS_MAX_COUNT allows: delete some first`,
      )
    }
    if (usage.bytes + pending.bytes + bytes > maxBytes) {
      throw new StoreFullError(
        `the collection would hold more than ${maxBytes} bytes, the most ITEMS_MAX_BYTES allows: delete or shorten items first`,
      )
    }
    pending.items += items
    pending.bytes += bytes
    return () => {
      pending.items -= items
      pending.bytes -= bytes
    }
  }

  const sizeOf = (value: NewItem | ItemFields) => encoder.encode(JSON.stringify(value)).byteLength
  const within = async <T>(items: number, bytes: number, write: () => Promise<T>) => {
    const release = await reserve(items, bytes)
    try {
      return await write()
    } finally {
      release()
    }
  }

  return {
    get changes() {
      return store.changes
    },
    list: () => store.list(),
    find: (id) => store.find(id),
    query: (query) => store.query(query),
    insert: (item) => within(1, sizeOf(item), () => store.insert(item)),
    // At most what the fields add: a field set anew replaces its old value.
    update: (id, fields, ifMatch, by) =>
      within(0, sizeOf(fields), () => store.update(id, fields, ifMatch, by)),
    remove: (id, ifMatch, by) => store.remove(id, ifMatch, by),
    restore: (items, options) => store.restore(items, options),
    usage: () => store.usage(),
    ping: () => store.ping(),
    close: () => store.close(),
  }
}
