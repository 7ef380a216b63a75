import type { RouteConfig } from '@hono/zod-openapi'
import type { CachedItems, ItemStore, TaggedJson } from '../store/item-store.js'
import { getItemRoute, listItemsRoute } from './items.routes.js'

/** A polled read whose answer is the store's serialised bytes and their tag; null when none. */
export type CachedRead = {
  route: RouteConfig
  /** The answer from any store. */
  read: (store: ItemStore, params: Record<string, string>) => Promise<TaggedJson | null>
  /** The same answer at once, from a store that keeps its items' JSON in memory. */
  readCached: (cached: CachedItems, params: Record<string, string>) => TaggedJson | null
  /**
   * Sent compressed to a client that accepts it (`list-variants.ts`), with `Vary:
   * Accept-Encoding` on every answer.
   */
  compressible?: boolean
}

/**
 * The reads browser apps poll, answered with the bytes the store keeps and their `ETag`: the one
 * table both the Hono routes (`items.app.ts`) and the Node entry's front
 * (`src/node/cached-reads.ts`) serve.
 */
export const listItems = {
  route: listItemsRoute,
  read: (store) => store.listTagged(),
  readCached: (cached) => cached.list(),
  compressible: true,
} satisfies CachedRead

export const getItem = {
  route: getItemRoute,
  read: (store, { id }) => store.findTagged(id as string),
  readCached: (cached, { id }) => cached.find(id as string),
} satisfies CachedRead

export const cachedReads: readonly CachedRead[] = [listItems, getItem]
