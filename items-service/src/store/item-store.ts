import type { ChangeFeed } from './change-feed.js'

/** An item as a create gives it: `id`, `name`, `genre`, and any other top-level fields. */
export type NewItem = { id: string; name: string; genre: string; [field: string]: unknown }

/** What an update sets: any of the fields; the others keep their values. */
export type ItemFields = {
  id?: string | undefined
  name?: string | undefined
  genre?: string | undefined
  [field: string]: unknown
}

/**
 * An item as stored and read back: with the `_id` the store gave it (24 lowercase hex digits),
 * and the `_owner` a user's create gave it (the token's `sub`); an item the key created has none.
 */
export type Item = {
  _id: string
  _owner?: string
  id: string
  name: string
  genre: string
  [field: string]: unknown
}

/** A value, or a promise of it: a store answers at once what it holds in memory. */
export type MaybePromise<T> = T | Promise<T>

/** Serialised JSON and its strong entity tag (quoted, as the `ETag` header carries it). */
export type TaggedJson = { body: Uint8Array; etag: string }

/**
 * The list's serialised JSON and its tag: bytes, or (in a Worker's object) one `Blob` that the
 * runtime sends without copying, or (in the Worker, from the object) the stream of that Blob,
 * sent on as it comes.
 */
export type TaggedList = { body: Uint8Array | Blob | ReadableStream<Uint8Array>; etag: string }

/** The list's bytes, read out of its `Blob` or stream where a store gave one. */
export async function listBytes({ body }: TaggedList): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body
  return new Uint8Array(await new Response(body).arrayBuffer())
}

/**
 * A write's `If-Match`: `*` (any current version) or the tags of the versions the writer read.
 * A store checks it in the same step as the write, so that no other write slips in between.
 */
export type IfMatch = '*' | readonly string[]

/** Whether a write under `ifMatch` may change an item whose current tag is `etag`. */
export function ifMatchAllows(ifMatch: IfMatch | undefined, etag: string): boolean {
  return ifMatch === undefined || ifMatch === '*' || ifMatch.includes(etag)
}

/** A write that happened: the list as it is right after it, for the response. */
export type Written = { ok: true; list: TaggedList }

/**
 * A write that changed nothing, and why: no item has the id, the item is not the version the
 * write's `If-Match` names, another item has the id the write gives, or the item is not the
 * writing user's. `id` is the one meant.
 */
export type Refused<Why extends RefusalReason> = {
  ok: false
  why: Why
  id: string
}

/** Why a write can be refused. */
export type RefusalReason = 'not-found' | 'stale' | 'duplicate-id' | 'not-owner'

/**
 * Whether a write by `by` (a user's `sub`; undefined: the key, which writes every item) may
 * change an item whose `_owner` is `owner`. An item without one is the key's alone.
 */
export function ownerAllows(by: string | undefined, owner: unknown): boolean {
  return by === undefined || owner === by
}

/** A write refused before anything was stored. */
export function refusedWrite<Why extends RefusalReason>(why: Why, id: string): Refused<Why> {
  return { ok: false, why, id }
}

/** Why a remove can be refused. */
export type RemoveRefusal = 'not-found' | 'stale' | 'not-owner'

/** What a restore did: items added, items that replaced one of the same id, items left out. */
export type Restored = { added: number; replaced: number; skipped: number }

/** A field `GET /items` can sort by: each is a required string of every item. */
export type SortField = 'id' | 'name' | 'genre'

/** Where a page ended: the last item's `_id` and, when sorted, its value of the sort field. */
export type PagePosition = { _id: string; value?: string }

/**
 * An opt-in read of `GET /items`. Items come in insertion (`_id`) order, or by `sort` with
 * `_id` breaking ties; strings compare by code point (UTF-8 byte order, as MongoDB compares them
 * without a collation).
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
 * The storage port of items-service. Reads answer serialised JSON with its tag, so that an
 * adapter can serve the bytes it keeps without building objects; every write answers the list
 * as it left it, since every mutation of the API answers the whole list. A store that cannot do
 * its work throws store-kit's `StoreUnavailableError` or `StoreFullError`, and nothing else.
 */
export interface ItemStore {
  /**
   * Every item, as a JSON array in insertion order: at once where the store holds the bytes in
   * memory (the embedded store), so that a read waits on nothing it need not.
   */
  list(): MaybePromise<TaggedList>
  /** The item whose `id` equals `id`, as a JSON object, or null: at once, as `list`, where it can. */
  find(id: string): MaybePromise<TaggedJson | null>
  /** The items `query` selects, as a JSON array. */
  query(query: ItemQuery): Promise<ItemPage>
  /** Stores one item; it gains `_id`. */
  insert(item: NewItem): Promise<Written | Refused<'duplicate-id'>>
  /**
   * Sets the given fields on the item with that `id`. With `by`, only if the item's `_owner` is
   * `by`, checked in the same step as the write (as `If-Match` is): no other write slips in.
   */
  update(
    id: string,
    fields: ItemFields,
    ifMatch?: IfMatch,
    by?: string,
  ): Promise<Written | Refused<RefusalReason>>
  /** Removes the item with that `id`; with `by`, only if its `_owner` is `by`. */
  remove(id: string, ifMatch?: IfMatch, by?: string): Promise<Written | Refused<RemoveRefusal>>
  /**
   * Stores items as they were exported, `_id`s included, so that the list orders them as it did
   * where they came from. An item whose `id` the store has is skipped, or with `replace` takes
   * that item's place (its `_id` too). The caller makes sure no `_id` is taken by another id.
   * Followers of the change feed are told to read the list again.
   */
  restore(items: readonly Item[], options: { replace: boolean }): Promise<Restored>
  /**
   * Every create, update and delete as it happens, with a bounded replay; absent when the store
   * cannot follow its changes (MongoDB without a replica set).
   */
  readonly changes?: ChangeFeed
  /**
   * How much the collection holds: its items, and their size in bytes (the list's JSON where
   * the store keeps it; MongoDB's data size, BSON, otherwise), for its bounds.
   */
  usage(): Promise<Usage>
  /** Resolves when the store answers. */
  ping(): Promise<void>
  close(): Promise<void>
}

/** How much a collection holds. */
export type Usage = { items: number; bytes: number }
