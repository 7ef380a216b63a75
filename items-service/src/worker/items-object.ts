import { DurableObject } from 'cloudflare:workers'
import type {
  Item,
  ItemPage,
  ItemQuery,
  ItemStore,
  Restored,
  TaggedJson,
  Usage,
} from '../store/item-store.js'
import type { Collection } from './collection.js'
import {
  type Answer,
  alone,
  type CollectionCalls,
  type Failure,
  failureResponse,
} from './collection-protocol.js'

/** The Worker's variables and secrets, as the runtime hands them in. */
export type Bindings = Record<string, unknown>

/** The bindings that are settings: strings (the Durable Object namespace is not one). */
export function settingsOf(bindings: Bindings): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bindings).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  )
}

/**
 * One collection's Durable Object, the class the platform makes (`ItemsObject` in wrangler.toml):
 * the collection's store, which the Worker's app calls (`ObjectItemStore`, over
 * `collection-protocol.ts`), and the streams of its change feed. It runs no HTTP pipeline of the
 * service's: request ids, CORS, checks and log lines are the Worker's, which the platform runs
 * on as many isolates as it needs, where the object is one thread for every request. What it
 * runs (`openCollection`) is a module it loads with its first call: the Worker's module,
 * evaluated by every isolate that starts, holds only this and the Worker.
 */
export class ItemsObject extends DurableObject<Bindings> implements CollectionCalls {
  #opening: Promise<Collection | Failure> | undefined
  /** The collection once open: every call after that goes straight to it. */
  #open: Collection | undefined

  /** The list and the writes (`collectionPaths`), and the change feed's streams. */
  async fetch(request: Request): Promise<Response> {
    const collection = this.#open ?? (await this.#opened())
    if ('failed' in collection) return failureResponse(collection)
    return collection.fetch(request)
  }

  find(id: string): Promise<Answer<TaggedJson | null>> {
    return this.#call(async (store) => {
      const found = await store.find(id)
      return found && { body: alone(found.body), etag: found.etag }
    })
  }

  query(query: ItemQuery): Promise<Answer<ItemPage>> {
    return this.#call(async (store) => {
      const page = await store.query(query)
      return { ...page, body: alone(page.body) }
    })
  }

  usage(): Promise<Answer<Usage>> {
    return this.#call((store) => store.usage())
  }

  ping(): Promise<Answer<null>> {
    return this.#call(async (store) => {
      await store.ping()
      return null
    })
  }

  restore(items: Item[], replace: boolean): Promise<Answer<Restored>> {
    return this.#call((store) => store.restore(items, { replace }))
  }

  async #call<T>(call: (store: ItemStore) => Promise<T>): Promise<Answer<T>> {
    const collection = this.#open ?? (await this.#opened())
    if ('failed' in collection) return collection
    try {
      return { value: await call(collection.store) }
    } catch (error) {
      return collection.failureFor(error)
    }
  }

  /**
   * The collection, opened by the first call, not the constructor: the MongoDB driver's sockets
   * must be opened by a request of the object to serve the ones after it. The calls that come
   * meanwhile wait for the same opening; a failed one is tried again by the next call.
   */
  async #opened(): Promise<Collection | Failure> {
    this.#opening ??= import('./collection.js').then(({ openCollection }) =>
      openCollection(this.ctx, settingsOf(this.env)),
    )
    const opened = await this.#opening
    if ('failed' in opened) this.#opening = undefined
    else this.#open = opened
    return opened
  }
}
