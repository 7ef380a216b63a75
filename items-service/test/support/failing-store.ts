import type { ItemStore } from '../../src/store/item-store.js'

/** A store whose every call fails the way the given error says. */
export function failingStore(error: () => Error): ItemStore {
  const fail = async (): Promise<never> => {
    throw error()
  }
  return {
    list: fail,
    query: fail,
    find: fail,
    insert: fail,
    update: fail,
    remove: fail,
    restore: fail,
    usage: fail,
    ping: fail,
    close: fail,
  }
}
