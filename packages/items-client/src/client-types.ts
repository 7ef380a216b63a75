import type { AtLeastOneField, Item, ItemFields, NewItem, NoFields } from './api-types.js'
import type { ItemEvent } from './item-event.js'
import type { ItemQuery, PageQuery } from './item-query.js'
import type { SubscribeOptions, Subscription } from './item-subscription.js'
import type { Fetch, HeadersInput } from './request-headers.js'

// The client's own types: its options, its calls' options and answers, and its operations.

/** What every request of a client shares. */
export type ItemsClientOptions = {
  /**
   * Sent as `x-apikey` with the writes (`create`, `update`, `remove`), which need it when the
   * service has `ITEMS_APIKEY` set. Reads are public and go without it, so that a browser sends
   * them without a CORS preflight.
   */
  apiKey?: string | undefined
  /**
   * A signed-in user's token for the writes (`Authorization: Bearer`), where the service has
   * `ITEMS_JWT_ISSUER` set: the token, or a function that answers it (say, your sign-in
   * library's current access token), called for each write and, once more, after a 401
   * `invalid_token` (an expired token: the write is sent again with the fresh one). Reads go
   * without it.
   */
  token?: string | (() => string | undefined | Promise<string | undefined>) | undefined
  /** The fetch to call; by default `globalThis.fetch`, looked up at each call. */
  fetch?: Fetch | undefined
  /** Headers for every request; a call's `headers` go over them. */
  headers?: HeadersInput | undefined
  /**
   * Conditional reads (on by default): `list`, `page`, `get` and `read` keep each URL's last
   * answer and its `ETag` in memory (at most 100 answers, 8 MiB of text) and send the tag as
   * `If-None-Match`; a 304 resolves to the kept answer. `false` turns it off.
   */
  cache?: boolean | undefined
}

/**
 * Per call: `signal` cancels the request (the call then rejects with the signal's reason);
 * `headers` go with this request only, over the client's.
 */
export type CallOptions = {
  signal?: AbortSignal | undefined
  headers?: HeadersInput | undefined
}

/**
 * Per write: `ifMatch`, the item's `etag` as `read` gave it (or `*` for any existing item), is
 * sent as `If-Match`: when the item has changed since, or is gone, nothing changes and the call
 * rejects with `ItemsApiError` 412.
 */
export type WriteOptions = CallOptions & { ifMatch?: string | undefined }

/** An item and its `ETag`, to send back as `ifMatch`. */
export type TaggedItem<Fields extends object = NoFields> = { item: Item<Fields>; etag: string }

/** A page of a query: `next` is the cursor of the following page, absent on the last. */
export type ItemPage<Fields extends object = NoFields> = {
  items: Item<Fields>[]
  next?: string | undefined
}

/**
 * The operations of items-service, for items with the custom `Fields` (each optional).
 * Each call resolves to the parsed answer or rejects with an `ItemsApiError` (an error status,
 * or an answer that is not JSON), an `InvalidRequestError` (nothing sent: an id no URL can
 * carry) or the fetch's own error (no answer at all). Ids are URL-encoded by the client: pass
 * them as they are.
 */
export type ItemsClient<Fields extends object = NoFields> = {
  /**
   * `GET /items`: every item in insertion order, or those `query` selects: every key but `sort`,
   * `limit` and `cursor` is an exact-match filter (`{ genre: 'Drama', sort: '-name' }`).
   */
  list<Q extends ItemQuery<Q>>(query?: Q, options?: CallOptions): Promise<Item<Fields>[]>
  /** `GET /items` a page at a time: pass `{ ...query, cursor: next }` for the following page. */
  page<Q extends PageQuery<Q>>(query: Q, options?: CallOptions): Promise<ItemPage<Fields>>
  /**
   * Every item of `query`, page after page (`limit` items each, 100 by default), following
   * each page's `next`: `for await (const item of items.all({ genre: 'Drama' }))`.
   */
  all<Q extends ItemQuery<Q>>(query?: Q, options?: CallOptions): AsyncIterable<Item<Fields>>
  /** `GET /items/:id`: one item; 404 when no item has that id. */
  get(id: string, options?: CallOptions): Promise<Item<Fields>>
  /** `GET /items/:id` with the item's `ETag`, for a write that must not overwrite a change. */
  read(id: string, options?: CallOptions): Promise<TaggedItem<Fields>>
  /** `POST /items`: every item, the new one last; 409 when its id exists. */
  create(item: NewItem<Fields>, options?: CallOptions): Promise<Item<Fields>[]>
  /** `PUT /items/:id`: sets the given fields (one at least), keeps the others; every item. */
  update<U extends ItemFields<Fields>>(
    id: string,
    fields: U & AtLeastOneField<U>,
    options?: WriteOptions,
  ): Promise<Item<Fields>[]>
  /** `DELETE /items/:id`: every remaining item; 404 when no item has that id. */
  remove(id: string, options?: WriteOptions): Promise<Item<Fields>[]>
  /**
   * `GET /items/events`: calls `onEvent` with each change as it happens, until `close()`.
   * Reconnects by itself after a dropped connection or an error answer, after the service's
   * `retry:` wait (doubled for each failure in a row), resuming with `Last-Event-ID`.
   */
  subscribe(onEvent: (event: ItemEvent<Fields>) => void, options?: SubscribeOptions): Subscription
}
