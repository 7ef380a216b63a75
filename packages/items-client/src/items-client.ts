import type { Item, ItemFields, StoredItem } from './api-types.js'
import { ItemsApiError } from './items-api-error.js'

/** A `fetch`: the global one, a wrapper of it, or an in-process app's `request`. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>

/** What `new Headers(...)` takes: an object, a `Headers`, or `[name, value]` pairs. */
export type HeadersInput = ConstructorParameters<typeof Headers>[0]

export type ItemsClientOptions = {
  /**
   * Sent as `x-apikey` with the writes (`create`, `update`, `remove`), which need it when the
   * service has `ITEMS_APIKEY` set. Reads are public and go without it, so that a browser sends
   * them without a CORS preflight.
   */
  apiKey?: string | undefined
  /** The fetch to call; by default `globalThis.fetch`, looked up at each call. */
  fetch?: Fetch | undefined
  /** Headers for every request; `x-apikey` and `content-type` are set by the client. */
  headers?: HeadersInput | undefined
}

/** Per call: an `AbortSignal` to cancel the request (the promise then rejects with its reason). */
export type CallOptions = { signal?: AbortSignal | undefined }

/**
 * The operations of items-service. Each resolves to the parsed answer or rejects with an
 * `ItemsApiError` (an error status) or the fetch's own error (no answer at all). Ids are
 * URL-encoded by the client: pass them as they are.
 */
export type ItemsClient = {
  /** `GET /items`: every item, in insertion order. */
  list(options?: CallOptions): Promise<StoredItem[]>
  /** `GET /items/:id`: one item; 404 when no item has that id. */
  get(id: string, options?: CallOptions): Promise<StoredItem>
  /** `POST /items`: every item, the new one last; 409 when its id exists. */
  create(item: Item, options?: CallOptions): Promise<StoredItem[]>
  /** `PUT /items/:id`: sets the given fields, keeps the others; answers every item. */
  update(id: string, fields: ItemFields, options?: CallOptions): Promise<StoredItem[]>
  /** `DELETE /items/:id`: every remaining item; 404 when no item has that id. */
  remove(id: string, options?: CallOptions): Promise<StoredItem[]>
}

/**
 * The global fetch, looked up at each call (a polyfill or an interceptor may come later) and
 * called on `globalThis`: browsers refuse a fetch called as another object's method.
 */
const globalFetch: Fetch = (input, init) => globalThis.fetch(input, init)

/**
 * A client for the items-service at `baseUrl` (its origin, plus a path prefix if it is served
 * under one; `''` for the page's own origin in a browser).
 * @param options `apiKey` for the writes, a `fetch` of your own, `headers` for every request
 * @example
 * const items = createItemsClient('http://localhost:4000', { apiKey: 'my-items-key' })
 * await items.create({ id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' })
 * const movie = await items.get('tt0111161') // StoredItem: { _id, id, name, genre }
 * @example
 * try {
 *   await items.remove('no such id')
 * } catch (error) {
 *   if (error instanceof ItemsApiError && error.status === 404) console.log(error.body.error)
 *   else throw error
 * }
 */
export function createItemsClient(
  baseUrl: string | URL,
  options: ItemsClientOptions = {},
): ItemsClient {
  const { apiKey, fetch: send = globalFetch, headers } = options
  const root = String(baseUrl).replace(/\/+$/, '')
  const itemUrl = (id: string) => `${root}/items/${encodeURIComponent(id)}`

  async function call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    { signal }: CallOptions = {},
    body?: unknown,
  ): Promise<T> {
    const requestHeaders = new Headers(headers)
    if (method !== 'GET' && apiKey !== undefined) requestHeaders.set('x-apikey', apiKey)
    if (body !== undefined) requestHeaders.set('content-type', 'application/json')
    const response = await send(url, {
      method,
      headers: requestHeaders,
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    })
    if (!response.ok) throw await ItemsApiError.fromResponse(response)
    return (await response.json()) as T
  }

  return {
    list: (perCall) => call('GET', `${root}/items`, perCall),
    get: (id, perCall) => call('GET', itemUrl(id), perCall),
    create: (item, perCall) => call('POST', `${root}/items`, perCall, item),
    update: (id, fields, perCall) => call('PUT', itemUrl(id), perCall, fields),
    remove: (id, perCall) => call('DELETE', itemUrl(id), perCall),
  }
}
