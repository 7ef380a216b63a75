import type { DurableObjectId } from '@cloudflare/workers-types'
import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import type {
  IfMatch,
  Item,
  ItemFields,
  ItemPage,
  ItemQuery,
  ItemStore,
  NewItem,
  RefusalReason,
  Refused,
  RemoveRefusal,
  Restored,
  TaggedJson,
  TaggedList,
  Usage,
  Written,
} from '../store/item-store.js'
import {
  type Answer,
  type CollectionStub,
  collectionOrigin,
  collectionPaths,
  errorOf,
  listOf,
  type RemoveCall,
  type UpdateCall,
  unavailableMessage,
  writtenOf,
} from './collection-protocol.js'

/** What the Worker asks of the `ITEMS` binding (wrangler.toml): the collection's object. */
export type ItemsNamespace = {
  idFromName(name: string): DurableObjectId
  get(id: DurableObjectId): CollectionStub
}

const json = { 'content-type': 'application/json' }

/**
 * The Worker's store: the collection's Durable Object, asked over `collection-protocol.ts`. Each
 * call gets a stub of its own (a stub serves the request that made it, and one that saw an
 * error fails every later call); the object's id is kept, since naming it hashes the name. An
 * object that cannot be reached is StoreUnavailableError, as a database that does not answer.
 * Its change feed is the object's (`followChanges`): no isolate sees every write.
 */
export class ObjectItemStore implements ItemStore {
  readonly #namespace: ItemsNamespace
  readonly #name: string
  #id: DurableObjectId | undefined

  constructor(namespace: ItemsNamespace, name: string) {
    this.#namespace = namespace
    this.#name = name
  }

  async list(): Promise<TaggedList> {
    return listOf(await this.#fetch(collectionPaths.list))
  }

  async find(id: string): Promise<TaggedJson | null> {
    return this.#call((object) => object.find(id))
  }

  async query(query: ItemQuery): Promise<ItemPage> {
    return this.#call((object) => object.query(query))
  }

  async insert(item: NewItem): Promise<Written | Refused<'duplicate-id'>> {
    const result = await this.#write(collectionPaths.insert, item)
    return result as Written | Refused<'duplicate-id'>
  }

  async update(
    id: string,
    fields: ItemFields,
    ifMatch?: IfMatch,
    by?: string,
  ): Promise<Written | Refused<RefusalReason>> {
    const call: UpdateCall = {
      id,
      fields,
      ...(ifMatch !== undefined && { ifMatch }),
      ...(by !== undefined && { by }),
    }
    return this.#write(collectionPaths.update, call)
  }

  async remove(
    id: string,
    ifMatch?: IfMatch,
    by?: string,
  ): Promise<Written | Refused<RemoveRefusal>> {
    const call: RemoveCall = {
      id,
      ...(ifMatch !== undefined && { ifMatch }),
      ...(by !== undefined && { by }),
    }
    const result = await this.#write(collectionPaths.remove, call)
    return result as Written | Refused<RemoveRefusal>
  }

  async restore(items: readonly Item[], { replace }: { replace: boolean }): Promise<Restored> {
    return this.#call((object) => object.restore([...items], replace))
  }

  async usage(): Promise<Usage> {
    return this.#call((object) => object.usage())
  }

  async ping(): Promise<void> {
    await this.#call((object) => object.ping())
  }

  /** The object holds the store: nothing of it is open here. */
  async close(): Promise<void> {}

  /** A client's request for the change feed, answered by the object that holds it. */
  followChanges(request: Request): Promise<Response> {
    return this.#reach((object) => object.fetch(request))
  }

  #write(path: string, call: unknown): Promise<Written | Refused<RefusalReason>> {
    return this.#fetch(path, JSON.stringify(call)).then(writtenOf)
  }

  #fetch(path: string, body?: string): Promise<Response> {
    const init = body === undefined ? {} : { method: 'POST', headers: json, body }
    return this.#reach((object) => object.fetch(`${collectionOrigin}${path}`, init))
  }

  async #call<T>(call: (object: CollectionStub) => Promise<Answer<T>>): Promise<T> {
    const response = await this.#reach(call)
    if ('failed' in response) throw errorOf(response)
    return response.value
  }

  async #reach<T>(call: (object: CollectionStub) => Promise<T>): Promise<T> {
    this.#id ??= this.#namespace.idFromName(this.#name)
    try {
      return await call(this.#namespace.get(this.#id))
    } catch (error) {
      throw new StoreUnavailableError(unavailableMessage, { cause: error })
    }
  }
}
