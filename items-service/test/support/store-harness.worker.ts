// A test-only Worker: each Durable Object of STORES owns one ItemStore, the one its first call
// opens, and runs each call it is sent on it: `POST /<object name>` with `{ method, args }`,
// answered with `{ value }` or `{ thrown: { name, message } }`. Bytes travel as `{ $bytes }`
// (base64). `POST /through-object/<object name>` runs the call in the Worker instead, on the
// Worker's own store (`ObjectItemStore`), over the service's collection object (`ItemsObject`,
// the ITEMS binding) of that name. `test/support/store-harness.ts` bundles it and calls it from
// the tests.
import type { DurableObjectNamespace, DurableObjectState } from '@cloudflare/workers-types'
import { DurableItemStore } from '../../src/store/durable/durable-item-store.js'
import type { ItemStore } from '../../src/store/item-store.js'
import type { MongoItemStoreOptions } from '../../src/store/mongo/mongo-item-store.js'
import { type ItemsNamespace, ObjectItemStore } from '../../src/worker/object-item-store.js'

export { ItemsObject } from '../../src/worker/items-object.js'

/** Set by the bundling: whether the MongoDB driver is in the bundle. */
declare const WITH_MONGODB: boolean

/** What `open` is given: nothing for the object's SQLite storage, or where MongoDB is. */
export type OpenOptions = { mongodb?: MongoItemStoreOptions }

export type Call = { method: 'open' | keyof ItemStore; args: unknown[] }

const calls = new Set([
  'list',
  'find',
  'query',
  'insert',
  'update',
  'remove',
  'restore',
  'usage',
  'ping',
  'close',
])

/**
 * Bytes as `{ $bytes: base64 }`, anywhere in a value, and a Blob's (a list, as the object's store
 * answers it) the same; everything else as it is.
 */
async function encode(value: unknown): Promise<unknown> {
  // A list as the Worker's store answers it: the object's stream.
  if (value instanceof ReadableStream) value = await new Response(value).blob()
  if (value instanceof Blob) value = new Uint8Array(await value.arrayBuffer())
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') }
  if (Array.isArray(value)) return Promise.all(value.map(encode))
  if (value && typeof value === 'object') {
    const fields = Object.entries(value).map(async ([key, field]) => [key, await encode(field)])
    return Object.fromEntries(await Promise.all(fields))
  }
  return value
}

async function openStore(state: DurableObjectState, { mongodb }: OpenOptions): Promise<ItemStore> {
  if (!mongodb) return new DurableItemStore(state.storage)
  // A constant of the bundling: without the driver, esbuild leaves this branch out.
  if (WITH_MONGODB) {
    const { MongoItemStore } = await import('../../src/store/mongo/mongo-item-store.js')
    return MongoItemStore.connect(mongodb)
  }
  throw new Error('this bundle has no MongoDB driver')
}

export class StoreObject {
  readonly #state: DurableObjectState
  #store: Promise<ItemStore> | undefined

  constructor(state: DurableObjectState) {
    this.#state = state
  }

  async fetch(request: Request): Promise<Response> {
    const { method, args } = (await request.json()) as Call
    try {
      if (method === 'open') {
        this.#store ??= openStore(this.#state, (args[0] ?? {}) as OpenOptions)
        await this.#store
        return Response.json({ value: null })
      }
      if (!this.#store) throw new Error(`cannot call ${method} now`)
      return await answer(await this.#store, method, args)
    } catch (error) {
      return thrown(error)
    }
  }
}

/** Runs one call on `store`: `{ value }`, encoded. */
async function answer(
  store: ItemStore,
  method: Call['method'],
  args: unknown[],
): Promise<Response> {
  if (!calls.has(method)) throw new Error(`cannot call ${method} now`)
  const methods = store as unknown as Record<string, (...args: unknown[]) => unknown>
  // JSON has no undefined: a missing If-Match comes as null.
  const value = await methods[method]?.(...args.map((arg) => arg ?? undefined))
  return Response.json({ value: (await encode(value)) ?? null })
}

function thrown(error: unknown): Response {
  const { name, message } = error instanceof Error ? error : new Error(String(error))
  return Response.json({ thrown: { name, message } })
}

const throughObject = '/through-object/'

export default {
  async fetch(
    request: Request,
    bindings: { STORES: DurableObjectNamespace; ITEMS: ItemsNamespace },
  ): Promise<Response> {
    const path = new URL(request.url).pathname
    if (path.startsWith(throughObject)) {
      const store = new ObjectItemStore(
        bindings.ITEMS,
        decodeURIComponent(path.slice(throughObject.length)),
      )
      const { method, args } = (await request.json()) as Call
      try {
        // Opening is the object's, at its first call.
        if (method === 'open') await store.ping()
        return method === 'open'
          ? Response.json({ value: null })
          : await answer(store, method, args)
      } catch (error) {
        return thrown(error)
      }
    }
    const name = decodeURIComponent(path.slice(1))
    const object = bindings.STORES.get(bindings.STORES.idFromName(name))
    return object.fetch(request as never) as unknown as Promise<Response>
  },
}
