import {
  type Collection,
  CursorTimeoutMode,
  MongoClient,
  MongoNetworkError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  ObjectId,
} from 'mongodb'
import type { Item, ItemFields } from '../items/item.schema.js'
import { DuplicateIdError, type ItemStore, StoreUnavailableError } from './item-store.js'

const duplicateKeyCode = 11000

export type MongoItemStoreOptions = {
  url: string
  dbName?: string
  collectionName?: string
  /** How long to wait for the database, at start and on each operation. */
  timeoutMs?: number
}

/**
 * Items in a MongoDB collection through the official driver, with a unique index on `id`.
 * Several instances of the service may share the database, so nothing is cached: every read
 * answers what the database holds, and the list streams from the cursor.
 */
export class MongoItemStore implements ItemStore {
  readonly #client: MongoClient
  readonly #items: Collection

  private constructor(client: MongoClient, items: Collection) {
    this.#client = client
    this.#items = items
  }

  /** Connects, checks the server answers and ensures the index. @throws when it does not in `timeoutMs`. */
  static async connect({
    url,
    dbName = 'data',
    collectionName = 'movies',
    timeoutMs = 10_000,
  }: MongoItemStoreOptions): Promise<MongoItemStore> {
    const client = new MongoClient(url, {
      serverSelectionTimeoutMS: timeoutMs,
      connectTimeoutMS: timeoutMs,
      // Every operation gets the same budget, so a database that stops answering is a 503.
      timeoutMS: timeoutMs,
      appName: 'items-service',
    })
    try {
      await client.connect()
      const items = client.db(dbName).collection(collectionName)
      await items.createIndex({ id: 1 }, { unique: true, name: 'id_unique' })
      return new MongoItemStore(client, items)
    } catch (error) {
      await client.close().catch(() => {})
      throw error
    }
  }

  async list(): Promise<ReadableStream<Uint8Array>> {
    // Each batch gets the time budget, not the whole stream, so a slow reader is not cut off.
    const cursor = this.#items.find(
      {},
      { sort: { _id: 1 }, timeoutMode: CursorTimeoutMode.ITERATION },
    )
    // Fetch the first batch before answering, so an unreachable database is still a 503.
    const hasFirst = await guard(() => cursor.hasNext())
    const encoder = new TextEncoder()
    let first = true
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          if (first) controller.enqueue(encoder.encode('['))
          const document = first && !hasFirst ? null : await cursor.next()
          if (document === null) {
            controller.enqueue(encoder.encode(']'))
            controller.close()
            return
          }
          controller.enqueue(encoder.encode((first ? '' : ',') + JSON.stringify(document)))
          first = false
        } catch (error) {
          controller.error(error)
        }
      },
      async cancel() {
        await cursor.close()
      },
    })
  }

  async find(id: string): Promise<Uint8Array | null> {
    const document = await guard(() => this.#items.findOne({ id }))
    return document ? Buffer.from(JSON.stringify(document)) : null
  }

  async insert(item: Item): Promise<void> {
    await guard(() => this.#items.insertOne({ _id: new ObjectId(), ...item }), item.id)
  }

  async update(id: string, fields: ItemFields): Promise<boolean> {
    const result = await guard(
      () => this.#items.updateOne({ id }, { $set: fields }),
      fields.id ?? id,
    )
    return result.matchedCount > 0
  }

  async remove(id: string): Promise<boolean> {
    const result = await guard(() => this.#items.deleteOne({ id }))
    return result.deletedCount > 0
  }

  async ping(): Promise<void> {
    await guard(() => this.#client.db('admin').command({ ping: 1 }))
  }

  async close(): Promise<void> {
    await this.#client.close()
  }
}

/** Maps the driver's errors onto the port's: a duplicate key, or a database that did not answer. */
async function guard<T>(operation: () => Promise<T>, id?: string): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    if (id !== undefined && error instanceof MongoServerError && error.code === duplicateKeyCode) {
      throw new DuplicateIdError(id)
    }
    if (
      error instanceof MongoServerSelectionError ||
      error instanceof MongoNetworkError ||
      error instanceof MongoOperationTimeoutError ||
      error instanceof MongoTopologyClosedError
    ) {
      throw new StoreUnavailableError({ cause: error })
    }
    throw error
  }
}
