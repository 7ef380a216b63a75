import type { ItemStore } from './item-store.js'

/** A store operation metrics are kept for: the port's methods that do the store's work. */
export type StoreOperation = 'list' | 'find' | 'query' | 'insert' | 'update' | 'remove' | 'restore'

/** Takes how long one operation took, in seconds, and whether it threw. */
export type StoreTiming = (operation: StoreOperation, seconds: number, failed: boolean) => void

/**
 * `store` with each operation's duration handed to `timing` once it settles, for metrics. The
 * caller gets the store's own result (a promise, or a read's value from memory), unchanged: the timing hangs off it, so no await and no
 * step is added between a read and its response.
 * @example const timed = timedItemStore(store, (operation, seconds) => histogram.observe(...))
 */
export function timedItemStore(store: ItemStore, timing: StoreTiming): ItemStore {
  const timed = <R>(operation: StoreOperation, run: () => R): R => {
    const startedAt = performance.now()
    const seconds = () => (performance.now() - startedAt) / 1000
    let running: R
    try {
      running = run()
    } catch (error) {
      timing(operation, seconds(), true)
      throw error
    }
    // A read answered from memory is no promise: timed now, and handed on as it is.
    if (!(running instanceof Promise)) {
      timing(operation, seconds(), false)
      return running
    }
    running.then(
      () => timing(operation, seconds(), false),
      () => timing(operation, seconds(), true),
    )
    return running
  }
  return {
    get changes() {
      return store.changes
    },
    list: () => timed('list', () => store.list()),
    find: (id) => timed('find', () => store.find(id)),
    query: (query) => timed('query', () => store.query(query)),
    insert: (item) => timed('insert', () => store.insert(item)),
    update: (id, fields, ifMatch, by) =>
      timed('update', () => store.update(id, fields, ifMatch, by)),
    remove: (id, ifMatch, by) => timed('remove', () => store.remove(id, ifMatch, by)),
    restore: (items, options) => timed('restore', () => store.restore(items, options)),
    usage: () => store.usage(),
    ping: () => store.ping(),
    close: () => store.close(),
  }
}
