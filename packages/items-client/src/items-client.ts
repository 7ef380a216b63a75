import type { Item, ItemFields, NewItem } from './api-types.js'
import type { ItemEvent } from './item-event.js'
import type { ItemQuery, PageQuery } from './item-query.js'
import { type SubscribeOptions, type Subscription, subscribeToEvents } from './item-subscription.js'
import { ItemsApiError } from './items-api-error.js'
import { nextCursor } from './link-header.js'
import { readJson } from './read-answer.js'
import { itemPath, queryString } from './request-url.js'

/** A `fetch`: the global one, a wrapper of it, or an in-process app's `request`. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>

/** What `new Headers(...)` takes: an object, a `Headers`, or `[name, value]` pairs. */
export type HeadersInput = ConstructorParameters<typeof Headers>[0]

/** What every request of a client shares. */
export type ItemsClientOptions = {
  /**
   * Sent as `x-apikey` with the writes (`create`, `update`, `remove`), which need it when the
   * service has `ITEMS_APIKEY` set. Reads are public and go without it, so that a browser sends
   * them without a CORS preflight.
   */
  apiKey?: string | undefined
  /** The fetch to call; by default `globalThis.fetch`, looked up at each call. */
  fetch?: Fetch | undefined
  /** Headers for every request; the client sets `x-apikey`, `content-type`, `if-match`. */
  headers?: HeadersInput | undefined
}

/** Per call: an `AbortSignal` to cancel the request (the promise then rejects with its reason). */
export type CallOptions = { signal?: AbortSignal | undefined }

/**
 * Per write: `ifMatch`, the item's `etag` as `read` gave it (or `*` for any existing item), is
 * sent as `If-Match`: when the item has changed since, or is gone, nothing changes and the call
 * rejects with `ItemsApiError` 412.
 */
export type WriteOptions = CallOptions & { ifMatch?: string | undefined }

/** An item and its `ETag`, to send back as `ifMatch`. */
export type TaggedItem = { item: Item; etag: string }

/** A page of a query: `next` is the cursor of the following page, absent on the last. */
export type ItemPage = { items: Item[]; next?: string | undefined }

/**
 * The operations of items-service. Each call resolves to the parsed answer or rejects with an
 * `ItemsApiError` (an error status, or an answer that is not JSON), an `InvalidRequestError`
 * (nothing sent: an id no URL can carry) or the fetch's own error (no answer at all). Ids are
 * URL-encoded by the client: pass them as they are.
 */
export type ItemsClient = {
  /**
   * `GET /items`: every item in insertion order, or those `query` selects: every key but `sort`,
   * `limit` and `cursor` is an exact-match filter (`{ genre: 'Drama', sort: '-name' }`).
   */
  list<Q extends ItemQuery<Q>>(query?: Q, options?: CallOptions): Promise<Item[]>
  /** `GET /items` a page at a time: pass `{ ...query, cursor: next }` for the following page. */
  page<Q extends PageQuery<Q>>(query: Q, options?: CallOptions): Promise<ItemPage>
  /** `GET /items/:id`: one item; 404 when no item has that id. */
  get(id: string, options?: CallOptions): Promise<Item>
  /** `GET /items/:id` with the item's `ETag`, for a write that must not overwrite a change. */
  read(id: string, options?: CallOptions): Promise<TaggedItem>
  /** `POST /items`: every item, the new one last; 409 when its id exists. */
  create(item: NewItem, options?: CallOptions): Promise<Item[]>
  /** `PUT /items/:id`: sets the given fields, keeps the others; answers every item. */
  update(id: string, fields: ItemFields, options?: WriteOptions): Promise<Item[]>
  /** `DELETE /items/:id`: every remaining item; 404 when no item has that id. */
  remove(id: string, options?: WriteOptions): Promise<Item[]>
  /**
   * `GET /items/events`: calls `onEvent` with each change as it happens, until `close()`.
   * Reconnects by itself after a dropped connection or an error answer, after the service's
   * `retry:` wait (doubled for each failure in a row), resuming with `Last-Event-ID`.
   */
  subscribe(onEvent: (event: ItemEvent) => void, options?: SubscribeOptions): Subscription
}

/**
 * The global fetch, looked up at each call (a polyfill or an interceptor may come later) and
 * called on `globalThis`: browsers refuse a fetch called as another object's method.
 */
const globalFetch: Fetch = (input, init) => globalThis.fetch(input, init)

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
type Sent = { signal?: AbortSignal | undefined; ifMatch?: string | undefined; body?: unknown }

/**
 * A client for the items-service at `baseUrl` (its origin, plus a path prefix if it is served
 * under one; `''` for the page's own origin in a browser).
 * @param options `apiKey` for the writes, a `fetch` of your own, `headers` for every request
 * @example
 * const items = createItemsClient('http://localhost:4000', { apiKey: 'my-items-key' })
 * await items.create({ id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' })
 * const { item, etag } = await items.read('tt0111161') // Item: { _id, id, name, genre }
 * await items.update('tt0111161', { genre: 'Crime' }, { ifMatch: etag })
 */
export function createItemsClient(
  baseUrl: string | URL,
  options: ItemsClientOptions = {},
): ItemsClient {
  const { apiKey, fetch: send = globalFetch, headers } = options
  const root = String(baseUrl).replace(/\/+$/, '')

  const request = (method: Method, path: string, { signal, ifMatch, body }: Sent = {}) => {
    const requestHeaders = new Headers(headers)
    if (method !== 'GET' && apiKey !== undefined) requestHeaders.set('x-apikey', apiKey)
    if (body !== undefined) requestHeaders.set('content-type', 'application/json')
    if (ifMatch !== undefined) requestHeaders.set('if-match', ifMatch)
    return send(`${root}${path}`, {
      method,
      headers: requestHeaders,
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    })
  }
  const call = async <T>(method: Method, path: string, sent?: Sent): Promise<T> =>
    readJson<T>(await request(method, path, sent))

  // Every method is async, so that a refused id rejects the call rather than throws from it.
  return {
    list: async (query, perCall) => call('GET', `/items${queryString(query ?? {})}`, perCall),
    page: async (query, perCall) => {
      const response = await request('GET', `/items${queryString(query)}`, perCall)
      const items = await readJson<Item[]>(response)
      const next = nextCursor(response.headers.get('link'))
      return next === undefined ? { items } : { items, next }
    },
    get: async (id, perCall) => call('GET', itemPath(id, { reading: true }), perCall),
    read: async (id, perCall) => {
      const response = await request('GET', itemPath(id, { reading: true }), perCall)
      const item = await readJson<Item>(response)
      const etag = response.headers.get('etag')
      if (etag === null) {
        throw ItemsApiError.unreadable(response, 'the answer has no ETag (is it exposed to CORS?)')
      }
      return { item, etag }
    },
    create: async (item, perCall) => call('POST', '/items', { ...perCall, body: item }),
    update: async (id, fields, perCall) => call('PUT', itemPath(id), { ...perCall, body: fields }),
    remove: async (id, perCall) => call('DELETE', itemPath(id), perCall),
    subscribe: (onEvent, subscribeOptions) => {
      const open = (lastEventId: string | undefined, signal: AbortSignal) => {
        const streamHeaders = new Headers(headers)
        streamHeaders.set('accept', 'text/event-stream')
        if (lastEventId !== undefined) streamHeaders.set('last-event-id', lastEventId)
        return send(`${root}/items/events`, { method: 'GET', headers: streamHeaders, signal })
      }
      return subscribeToEvents(open, onEvent, subscribeOptions)
    },
  }
}
