import type { ItemPage, ItemQuery, TaggedJson } from './item-store.js'

/** Runs queries over a store's list held in memory as JSON. */
export class JsonListQuery {
  run(_list: TaggedJson, _query: ItemQuery): ItemPage {
    throw new Error('not yet implemented')
  }
}
