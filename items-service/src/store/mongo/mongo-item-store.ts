import { createHash } from 'node:crypto'
import {
  boundedClient,
  insertInOrder,
  isDuplicateKey,
  withinDeadline,
} from '@movies-and-mail/mongo-kit'
import { SortableIdSequence, StoreUnavailableError } from '@movies-and-mail/store-kit'
import type { Collection, Document, IndexDescription, MongoClient } from 'mongodb'
import type { ChangeFeed } from '../change-feed.js'
import {
  type IfMatch,
  type Item,
  type ItemFields,
  type ItemPage,
  type ItemQuery,
  type ItemStore,
  ifMatchAllows,
  type NewItem,
  ownerAllows,
  type RefusalReason,
  type Refused,
  type RemoveRefusal,
  type Restored,
  refusedWrite,
  type TaggedJson,
  type Usage,
  type Written,
} from '../item-store.js'
import {
  hasChangeStreams,
  MongoChangeFollower,
  preImagesWireVersion,
} from './mongo-change-stream.js'
import { positionOf, toMongoFind } from './mongo-find.js'
import { listChunks } from './mongo-list.js'
import { restoreItems } from './mongo-restore.js'
import { readSwapTarget } from './mongo-swap.js'

/**
 * The unique `id`, and what serves a sorted page without sorting in memory: a sort field then
 * `_id` ascending (the tie-breaker), in each direction, since an index read backwards would
 * also reverse the ties. A sort on `id` needs none: `id_unique` serves it.
 */
const indexes: IndexDescription[] = [
  { key: { id: 1 }, name: 'id_unique', unique: true },
  { key: { name: 1, _id: 1 }, name: 'name_then_id' },
  { key: { name: -1, _id: 1 }, name: 'name_desc_then_id' },
  { key: { genre: 1, _id: 1 }, name: 'genre_then_id' },
  { key: { genre: -1, _id: 1 }, name: 'genre_desc_then_id' },
]

export type MongoItemStoreOptions = {
  url: string
  dbName?: string
  collectionName?: string
  /** How long to wait for the database, at start and on each operation (each batch of a list). */
  timeoutMs?: number
  /** Whether each socket read also times out at `timeoutMs` (`BoundedClientOptions`). */
  socketTimeouts?: boolean
}

/**
 * Items in a MongoDB collection through the official driver, with a unique index on `id`.
 * Several instances of the service may share the database, so nothing is cached: every read
 * answers what the database holds, the list read from the cursor a batch at a time. Every
 * operation settles within `timeoutMs`, with StoreUnavailableError when the database does not
 * answer.
 *
 * `If-Match` is a compare-and-swap: the write's filter holds the whole item as read, so a
 * change by any instance in between makes it match nothing. Queries run in the database.
 * `changes` follows the collection's change stream, so it carries the writes of every instance,
 * not only this one's; change streams need a replica set or a sharded cluster (Atlas is one),
 * so on a standalone server `changes` is absent.
 */
export class MongoItemStore implements ItemStore {
  readonly #client: MongoClient
  readonly #items: Collection
  readonly #timeoutMs: number
  readonly #follower: MongoChangeFollower | undefined
  /** The `_id`s of this instance's creates: each after the newest any instance made. */
  readonly #ids = new SortableIdSequence()

  private constructor(
    client: MongoClient,
    items: Collection,
    timeoutMs: number,
    follower: MongoChangeFollower | undefined,
  ) {
    this.#client = client
    this.#items = items
    this.#timeoutMs = timeoutMs
    this.#follower = follower
  }

  get changes(): ChangeFeed | undefined {
    return this.#follower?.feed
  }

  /**
   * Connects, asks the server what it is, ensures the indexes and, where the server has change
   * streams, opens one. @throws when the server is not found, or the rest does not succeed, in
   * `timeoutMs` each.
   */
  static async connect({
    url,
    dbName = 'data',
    collectionName = 'movies',
    timeoutMs = 10_000,
    socketTimeouts = true,
  }: MongoItemStoreOptions): Promise<MongoItemStore> {
    const client = boundedClient(url, { timeoutMs, appName: 'items-service', socketTimeouts })
    let follower: MongoChangeFollower | undefined
    try {
      await client.connect()
      const items = client.db(dbName).collection(collectionName)
      await withinDeadline(timeoutMs, async (signal) => {
        const server = await client.db('admin').command({ hello: 1 }, { signal })
        await items.createIndexes(indexes)
        if (!hasChangeStreams(server)) return
        signal.throwIfAborted()
        follower = new MongoChangeFollower(items, {
          preImages: Number(server.maxWireVersion) >= preImagesWireVersion,
          // Each wait for changes must end before the socket timeout would cut it.
          awaitMs: Math.min(1_000, Math.floor(timeoutMs / 2)),
          reopenDelayMs: Math.min(1_000, timeoutMs),
        })
        await follower.opened
      })
      return new MongoItemStore(client, items, timeoutMs, follower)
    } catch (error) {
      follower?.close()
      await client.close().catch(() => {})
      throw error
    }
  }

  /**
   * The list read whole into memory while its SHA-256 is taken: the tag is that of the bytes
   * answered, whatever other instances wrote. Costs one pass of SHA-256 over the list (0.75 ms
   * per MB measured here) and the whole list held in memory per request.
   */
  async list(): Promise<TaggedJson> {
    const hash = createHash('sha256')
    const chunks: Buffer[] = []
    for await (const chunk of listChunks(this.#items, this.#timeoutMs)) {
      hash.update(chunk)
      chunks.push(chunk)
    }
    return { body: Buffer.concat(chunks), etag: tagOf(hash) }
  }

  async find(id: string): Promise<TaggedJson | null> {
    const document = await this.#within((signal) => this.#items.findOne({ id }, { signal }))
    if (!document) return null
    const body = Buffer.from(JSON.stringify(document))
    return { body, etag: tagOf(createHash('sha256').update(body)) }
  }

  /** One page, read whole within the deadline: a page is what the caller asked to hold. */
  async query(query: ItemQuery): Promise<ItemPage> {
    const { filter, sort, limit } = toMongoFind(query)
    const options = limit === undefined ? { sort } : { sort, limit }
    const documents = await this.#within((signal) =>
      this.#items.find(filter, { ...options, signal }).toArray(),
    )
    const page = query.limit === undefined ? documents : documents.slice(0, query.limit)
    const body = Buffer.from(`[${page.map((document) => JSON.stringify(document)).join(',')}]`)
    const last = page.at(-1)
    if (documents.length === page.length || !last) return { body }
    return { body, next: positionOf(last, query.sort?.field) }
  }

  // The driver takes an abort signal on reads only; a write the deadline gives up on is let go
  // by the step budgets set in `connect`.
  /**
   * The item under an `_id` after every `_id` stored (`insertInOrder`): the list, read by `_id`,
   * keeps insertion order across the instances sharing the database, and so does a pager.
   */
  async insert(item: NewItem): Promise<Written | Refused<'duplicate-id'>> {
    try {
      await this.#within(() => insertInOrder(this.#items, this.#ids, (_id) => ({ _id, ...item })))
    } catch (error) {
      if (isDuplicateKey(error, 'id')) return refusedWrite('duplicate-id', item.id)
      throw error
    }
    return this.#written()
  }

  async update(
    id: string,
    fields: ItemFields,
    ifMatch?: IfMatch,
    by?: string,
  ): Promise<Written | Refused<RefusalReason>> {
    const write = async (filter: Document) =>
      (await this.#items.updateOne(filter, { $set: fields })).matchedCount > 0
    try {
      const outcome = await this.#within((signal) => this.#write(id, ifMatch, by, write, signal))
      return outcome === 'done' ? this.#written() : refusedWrite(outcome, id)
    } catch (error) {
      if (isDuplicateKey(error, 'id')) return refusedWrite('duplicate-id', fields.id ?? id)
      throw error
    }
  }

  async remove(
    id: string,
    ifMatch?: IfMatch,
    by?: string,
  ): Promise<Written | Refused<RemoveRefusal>> {
    const write = async (filter: Document) => (await this.#items.deleteOne(filter)).deletedCount > 0
    const outcome = await this.#within((signal) => this.#write(id, ifMatch, by, write, signal))
    return outcome === 'done' ? this.#written() : refusedWrite(outcome, id)
  }

  async restore(items: readonly Item[], { replace }: { replace: boolean }): Promise<Restored> {
    return restoreItems(this.#items, items, { replace, timeoutMs: this.#timeoutMs })
  }

  /**
   * The items from the collection's count, and their size from its statistics (the data size,
   * BSON): two reads of metadata, whatever the collection holds.
   */
  async usage(): Promise<Usage> {
    return this.#within(async (signal) => {
      const items = await this.#items.estimatedDocumentCount()
      const [stats] = await this.#items
        .aggregate([{ $collStats: { storageStats: {} } }], { signal })
        .toArray()
      const bytes = Number(stats?.storageStats?.size ?? 0)
      return { items, bytes }
    })
  }

  async ping(): Promise<void> {
    await this.#within((signal) => this.#client.db('admin').command({ ping: 1 }, { signal }))
  }

  async close(): Promise<void> {
    this.#follower?.close()
    await this.#client.close()
  }

  /**
   * A write of the item with that `id`. Under `If-Match` it is a compare-and-swap without a
   * version field: the item is read, its tag checked, and the write filtered on the item exactly
   * as read; when that matches nothing, another write came between: the item changed (stale) or
   * is gone (not found). A user's write (`by`) is filtered on its `_owner` too, so that the
   * check and the write are one operation of the database; when it matches nothing, the item
   * is read to say why (another's, or gone), and nothing was written either way.
   */
  async #write(
    id: string,
    ifMatch: IfMatch | undefined,
    by: string | undefined,
    write: (filter: Document) => Promise<boolean>,
    signal: AbortSignal,
  ): Promise<'done' | 'not-found' | 'stale' | 'not-owner'> {
    if (ifMatch === undefined) {
      if (await write(by === undefined ? { id } : { id, _owner: by })) return 'done'
      if (by === undefined) return 'not-found'
      const now = await this.#items.findOne({ id }, { projection: { _id: 1 }, signal })
      return now ? 'not-owner' : 'not-found'
    }
    const target = await readSwapTarget(this.#items, id, signal)
    if (!target) return 'not-found'
    if (!ownerAllows(by, target.owner)) return 'not-owner'
    if (!ifMatchAllows(ifMatch, tagOf(createHash('sha256').update(target.json)))) return 'stale'
    if (await write(target.unchanged)) return 'done'
    const now = await this.#items.findOne(target.same, { projection: { _id: 1 }, signal })
    return now ? 'stale' : 'not-found'
  }

  /**
   * A write done: the list as it is now, read from the database. Should that read fail, the
   * answer must not say that nothing was stored: a retry would meet its own write (409, 412).
   */
  async #written(): Promise<Written> {
    try {
      return { ok: true, list: await this.list() }
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error
      throw new StoreUnavailableError(
        'the write was stored, but the list could not be read: read it again with GET /items',
        { cause: error },
      )
    }
  }

  #within<T>(operation: (signal: AbortSignal) => Promise<T>) {
    return withinDeadline(this.#timeoutMs, operation)
  }
}

/** A strong entity tag from a digest of the bytes answered. */
function tagOf(hash: ReturnType<typeof createHash>): string {
  return `"${hash.digest('base64url')}"`
}
