import type { JsonBody } from '@movies-and-mail/http-kit'
import type { Item, ItemFields } from '../items/item.schema.js'

export type { JsonBody }

/**
 * The storage port of items-service. Reads answer serialised JSON so that an adapter can
 * serve cached bytes (embedded) or stream from a cursor (MongoDB) without building objects.
 */
export interface ItemStore {
  /** Every item, as a JSON array in insertion order. */
  list(): Promise<JsonBody>
  /** The item whose `id` equals `id`, as a JSON object, or null. */
  find(id: string): Promise<Uint8Array | null>
  /** Stores one item; it gains `_id`. @throws DuplicateIdError */
  insert(item: Item): Promise<void>
  /** Sets the given fields on the first item with that `id`; false when none. @throws DuplicateIdError */
  update(id: string, fields: ItemFields): Promise<boolean>
  /** Removes one item with that `id`; false when none. */
  remove(id: string): Promise<boolean>
  /** Present when the store keeps every item's JSON in this process: reads answered at once. */
  readonly cached?: CachedItems
  /** Resolves when the store answers. @throws StoreUnavailableError */
  ping(): Promise<void>
  close(): Promise<void>
}

/** What `list()` and `find()` resolve to, now, from the store's memory. */
export interface CachedItems {
  list(): Uint8Array
  find(id: string): Uint8Array | null
}

/** Another item already has this `id`. */
export class DuplicateIdError extends Error {
  constructor(readonly id: string) {
    super(`an item with id '${id}' already exists`)
    this.name = 'DuplicateIdError'
  }
}

/** The database did not answer; the request may be retried. */
export class StoreUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('database unavailable', options)
    this.name = 'StoreUnavailableError'
  }
}

/** The disk has no room for the write; nothing of it was stored. */
export class StoreFullError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('no space left to store the write', options)
    this.name = 'StoreFullError'
  }
}
