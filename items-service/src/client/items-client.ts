import { type ClientRequestOptions, hc } from 'hono/client'
import type { ItemsApp } from '../items/items.app.js'

/**
 * The web page's client (bundled into the page, not exported): `hono/client` typed by the
 * routes themselves, answering each status's `Response`. Other apps use the published
 * `@movies-and-mail/items-client` (packages/items-client), which needs nothing of the service.
 * @example
 * const items = itemsClient(window.location.origin)
 * const res = await items.items.$post({ json: { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' } })
 * if (res.status === 201) console.log(await res.json()) // StoredItem[]
 */
export function itemsClient(baseUrl: string, options?: ClientRequestOptions) {
  return hc<ItemsApp>(baseUrl, options)
}

export type ItemsClient = ReturnType<typeof itemsClient>

/** The path parameter for an item id. hc inserts parameters as given, so encode here. */
export function itemParam(id: string): { id: string } {
  return { id: encodeURIComponent(id) }
}

export type { Item as StoredItem } from '../store/item-store.js'
