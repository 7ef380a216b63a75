import { type ClientRequestOptions, hc } from 'hono/client'
import type { ItemsApp } from '../items/items.app.js'

/**
 * A typed client for browser apps (and any fetch-capable runtime), generated from the routes'
 * own types: request bodies and responses are checked by the compiler.
 * @example
 * const items = itemsClient('http://localhost:4000')
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

export type { StoredItem } from '../items/item.schema.js'
