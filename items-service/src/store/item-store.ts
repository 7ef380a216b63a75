import type { JsonBody } from '@movies-and-mail/http-kit'
import type { Item, ItemFields } from '../items/item.schema.js'
import type { ChangeFeed } from './change-feed.js'

export type { JsonBody }

/** Serialised JSON and its strong entity tag (quoted, as the `ETag` header carries it). */
export type TaggedJson = { body: Uint8Array; etag: string }

/**
 * A write's `If-Match`: told the item's current tag, says whether the write may go ahead. A
 * store asks it in the same step as the write, so that no other write slips in between.
 */
export type WriteCondition = (etag: string) => boolean

/** A field `GET /items` can sort by: each is a required string of every item. */
export type SortField = 'id' | 'name' | 'genre'

/** Where a page ended: the last item's `_id` and, when sorted, its value of the sort field. */
export type PagePosition = { _id: string; value?: string }

/**
 * An opt-in read of `GET /items` (README › Query). Items come in insertion (`_id`) order, or by
 * `sort` with `_id` breaking ties; strings compare by code point (UTF-8 byte order, as MongoDB
 * compares them without a collation).
 */
export type ItemQuery = {
  /**
   * Exact matches on top-level fields, all of which must hold. A value matches a field whose
   * value is that string, or a number, boolean or null whose JSON text it is (`year=1994`
   * matches `1994`, not `"1994.0"`).
   */
  filters: ReadonlyArray<readonly [field: string, value: string]>
  sort?: { field: SortField; descending: boolean }
  /** At most this many items; all that match when absent. */
  limit?: number
  /** Only items after this position in the query's order (the previous page's `next`). */
  after?: PagePosition
}

/** One page of a query: a JSON array, and where the next page starts when there is one. */
export type ItemPage = { body: Uint8Array; next?: PagePosition }

/**
 * The storage port of items-service. Reads answer serialised JSON so that an adapter can
 * serve cached bytes (embedded) or stream from a cursor (MongoDB) without building objects.
 */
export interface ItemStore {
  /** Every item, as a JSON array in insertion order. */
  list(): Promise<JsonBody>
  /** The item whose `id` equals `id`, as a JSON object, or null. */
  find(id: string): Promise<Uint8Array | null>
  /** `list()` as bytes with their entity tag. */
  listTagged(): Promise<TaggedJson>
  /** `find()` with the item's entity tag, or null. */
  findTagged(id: string): Promise<TaggedJson | null>
  /** The items `query` selects, as a JSON array (README › Query). */
  query(query: ItemQuery): Promise<ItemPage>
  /**
   * Every create, update and delete as it happens, with a bounded replay; absent when the store
   * cannot follow its changes (MongoDB without a replica set).
   */
  readonly changes?: ChangeFeed
  /** Stores one item; it gains `_id`. @throws DuplicateIdError */
  insert(item: Item): Promise<void>
  /**
   * Sets the given fields on the first item with that `id`; false when none.
   * @throws DuplicateIdError, PreconditionFailedError when `condition` refuses the item's tag
   */
  update(id: string, fields: ItemFields, condition?: WriteCondition): Promise<boolean>
  /** Removes one item with that `id`; false when none. @throws PreconditionFailedError */
  remove(id: string, condition?: WriteCondition): Promise<boolean>
  /** Present when the store keeps every item's JSON in this process: reads answered at once. */
  readonly cached?: CachedItems
  /** Resolves when the store answers. @throws StoreUnavailableError */
  ping(): Promise<void>
  close(): Promise<void>
}

/** What `listTagged()` and `findTagged()` resolve to, now, from the store's memory. */
export interface CachedItems {
  list(): TaggedJson
  find(id: string): TaggedJson | null
}

/** The item's current entity tag is not one the write's `If-Match` names; nothing changed. */
export class PreconditionFailedError extends Error {
  constructor(readonly id: string) {
    super(`item '${id}' does not match If-Match`)
    this.name = 'PreconditionFailedError'
  }
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
