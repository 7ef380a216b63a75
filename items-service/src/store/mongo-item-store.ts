import { createHash } from 'node:crypto'
import {
  type Collection,
  MongoClient,
  MongoNetworkError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  ObjectId,
} from 'mongodb'
import type { Item, ItemFields } from '../items/item.schema.js'
import {
  ConditionalWriteUnsupportedError,
  DuplicateIdError,
  type ItemPage,
  type ItemQuery,
  type ItemStore,
  StoreUnavailableError,
  type TaggedJson,
  type WriteCondition,
} from './item-store.js'

const duplicateKeyCode = 11000

export type MongoItemStoreOptions = {
  url: string
  dbName?: string
  collectionName?: string
  /** How long to wait for the database, at start and on each operation (each batch of a list). */
  timeoutMs?: number
}

/**
 * Items in a MongoDB collection through the official driver, with a unique index on `id`.
 * Several instances of the service may share the database, so nothing is cached: every read
 * answers what the database holds, and the list streams from the cursor. Every operation
 * settles within `timeoutMs`, with StoreUnavailableError when the database does not answer.
 */
export class MongoItemStore implements ItemStore {
  readonly #client: MongoClient
  readonly #items: Collection
  readonly #timeoutMs: number

  private constructor(client: MongoClient, items: Collection, timeoutMs: number) {
    this.#client = client
    this.#items = items
    this.#timeoutMs = timeoutMs
  }

  /** Connects, checks the server answers and ensures the index. @throws when it does not in `timeoutMs`. */
  static async connect({
    url,
    dbName = 'data',
    collectionName = 'movies',
    timeoutMs = 10_000,
  }: MongoItemStoreOptions): Promise<MongoItemStore> {
    // The driver ignores `timeoutMS` (it warns so) and no setting of its bounds a whole
    // operation: each step has its own budget, and a failed read is tried again. So each
    // operation runs under a deadline of ours, and each step gets the budget too, so that a
    // connection left waiting for an answer closes by itself instead of holding its place in the
    // pool where the deadline's abort signal does not reach (writes, later batches, killCursors).
    const client = new MongoClient(url, {
      serverSelectionTimeoutMS: timeoutMs,
      connectTimeoutMS: timeoutMs,
      waitQueueTimeoutMS: timeoutMs,
      socketTimeoutMS: timeoutMs,
      appName: 'items-service',
    })
    try {
      await client.connect()
      const items = client.db(dbName).collection(collectionName)
      await withinDeadline(timeoutMs, () =>
        items.createIndex({ id: 1 }, { unique: true, name: 'id_unique' }),
      )
      return new MongoItemStore(client, items, timeoutMs)
    } catch (error) {
      await client.close().catch(() => {})
      throw error
    }
  }

  async list(): Promise<ReadableStream<Uint8Array>> {
    // One signal for the cursor, and a deadline for each batch: a slow reader is not cut off.
    const abort = new AbortController()
    const cursor = this.#items.find({}, { sort: { _id: 1 }, signal: abort.signal })
    const nextBatch = () =>
      withinDeadline(
        this.#timeoutMs,
        async () => ((await cursor.hasNext()) ? cursor.readBufferedDocuments() : []),
        { abort },
      )
    // The first batch before answering, so that a database that does not answer is a 503.
    let batch = await nextBatch()
    let opened = false
    const encoder = new TextEncoder()
    return new ReadableStream<Uint8Array>({
      async pull(stream) {
        try {
          if (opened) batch = await nextBatch()
          if (batch.length === 0) {
            stream.enqueue(encoder.encode(opened ? ']' : '[]'))
            stream.close()
            return
          }
          const json = batch.map((document) => JSON.stringify(document)).join(',')
          stream.enqueue(encoder.encode((opened ? ',' : '[') + json))
          opened = true
        } catch (error) {
          stream.error(error)
        }
      },
      async cancel() {
        await cursor.close()
      },
    })
  }

  async find(id: string): Promise<Uint8Array | null> {
    const document = await this.#within((signal) => this.#items.findOne({ id }, { signal }))
    return document ? Buffer.from(JSON.stringify(document)) : null
  }

  /**
   * The list read whole into memory while its SHA-256 is taken: the tag is that of the bytes
   * answered, whatever other instances wrote. Costs one pass of SHA-256 over the list (0.75 ms
   * per MB measured here) and the whole list held in memory, instead of streamed, per request.
   */
  async listTagged(): Promise<TaggedJson> {
    const hash = createHash('sha256')
    const chunks: Uint8Array[] = []
    for await (const chunk of streamChunks(await this.list())) {
      hash.update(chunk)
      chunks.push(chunk)
    }
    return { body: Buffer.concat(chunks), etag: tagOf(hash) }
  }

  async findTagged(id: string): Promise<TaggedJson | null> {
    const body = await this.find(id)
    return body && { body, etag: tagOf(createHash('sha256').update(body)) }
  }

  async query(_query: ItemQuery): Promise<ItemPage> {
    throw new Error('query is not yet implemented with MongoDB')
  }

  // The driver takes an abort signal on reads only; a write the deadline gives up on is let go
  // by the step budgets set in `connect`.
  async insert(item: Item): Promise<void> {
    const document = { _id: new ObjectId(), ...item }
    await this.#within(() => this.#items.insertOne(document), { id: item.id })
  }

  async update(id: string, fields: ItemFields, condition?: WriteCondition): Promise<boolean> {
    if (condition) throw new ConditionalWriteUnsupportedError()
    const { matchedCount } = await this.#within(
      () => this.#items.updateOne({ id }, { $set: fields }),
      { id: fields.id ?? id },
    )
    return matchedCount > 0
  }

  async remove(id: string, condition?: WriteCondition): Promise<boolean> {
    if (condition) throw new ConditionalWriteUnsupportedError()
    const { deletedCount } = await this.#within(() => this.#items.deleteOne({ id }))
    return deletedCount > 0
  }

  async ping(): Promise<void> {
    await this.#within((signal) => this.#client.db('admin').command({ ping: 1 }, { signal }))
  }

  async close(): Promise<void> {
    await this.#client.close()
  }

  #within<T>(operation: (signal: AbortSignal) => Promise<T>, options?: DeadlineOptions) {
    return withinDeadline(this.#timeoutMs, operation, options)
  }
}

/** A strong entity tag from a digest of the bytes answered. */
function tagOf(hash: ReturnType<typeof createHash>): string {
  return `"${hash.digest('base64url')}"`
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader()
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value
  } finally {
    reader.releaseLock()
  }
}

/** The id a write is about (for DuplicateIdError), and the abort shared by a cursor's batches. */
type DeadlineOptions = { id?: string; abort?: AbortController }

/**
 * Settles as `operation` does, or rejects with StoreUnavailableError after `ms`, aborting its
 * signal first: where the driver listens, it then stops waiting for a server or a connection
 * and closes the connection that waits for the answer, which will not come.
 */
async function withinDeadline<T>(
  ms: number,
  operation: (signal: AbortSignal) => Promise<T>,
  { id, abort = new AbortController() }: DeadlineOptions = {},
): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StoreUnavailableError({ cause: new Error(`no answer within ${ms} ms`) })
      abort.abort(error)
      reject(error)
    }, ms)
  })
  try {
    return await Promise.race([operation(abort.signal), expired])
  } catch (error) {
    throw storeError(error, id)
  } finally {
    clearTimeout(timer)
  }
}

/** The driver's errors as the port's: a duplicate key, or a database that did not answer. */
function storeError(error: unknown, id?: string): unknown {
  if (id !== undefined && error instanceof MongoServerError && error.code === duplicateKeyCode) {
    return new DuplicateIdError(id)
  }
  if (
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNetworkError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoTopologyClosedError
  ) {
    return new StoreUnavailableError({ cause: error })
  }
  return error
}
