import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import Datastore from '@seald-io/nedb'
import type { Item, ItemFields, StoredItem } from '../items/item.schema.js'
import { DuplicateIdError, type ItemStore, type MemoryReads } from './item-store.js'
import { JsonListCache } from './json-list-cache.js'
import { ObjectIdSequence } from './object-id.js'
import { appendSynchronously } from './synchronous-append.js'

type Document = StoredItem & Record<string, unknown>

/**
 * The default store: an embedded document database (NeDB, MongoDB's query and update language)
 * in one append-only file under `dataDir`. A write resolves once it is in the file, so an
 * acknowledged write survives the process being killed.
 *
 * This process is the file's only writer, so the store keeps the list's JSON in memory and
 * updates it on each write: a read serialises nothing, and a write serialises only the item it
 * changed.
 */
export class EmbeddedItemStore implements ItemStore, MemoryReads {
  readonly #db: Datastore<Document>
  readonly #stopAppending: () => void
  readonly #ids = new ObjectIdSequence()
  /** The list, keyed by `_id`. */
  readonly #cache: JsonListCache
  /** `_id` by public `id`. */
  readonly #keyById = new Map<string, string>()

  private constructor(db: Datastore<Document>, stopAppending: () => void) {
    this.#db = db
    this.#stopAppending = stopAppending
    // The database's own documents, read once and not kept: `_id` order is insertion order.
    const documents = [...db.getAllData()].sort((a, b) => (a._id < b._id ? -1 : 1))
    for (const { _id, id } of documents) {
      this.#ids.observe(_id)
      this.#keyById.set(id, _id)
    }
    this.#cache = new JsonListCache(serialisedOneByOne(documents))
  }

  /** Opens (or creates) the store in `dataDir/<collection>.db`. */
  static async open(dataDir: string, collection = 'movies'): Promise<EmbeddedItemStore> {
    await mkdir(dataDir, { recursive: true })
    const filename = join(dataDir, `${collection}.db`)
    const db = new Datastore<Document>({ filename })
    await db.loadDatabaseAsync()
    await db.ensureIndexAsync({ fieldName: 'id', unique: true })
    return new EmbeddedItemStore(db, appendSynchronously(db, filename))
  }

  async list(): Promise<Uint8Array> {
    return this.listNow()
  }

  async find(id: string): Promise<Uint8Array | null> {
    return this.findNow(id)
  }

  listNow(): Uint8Array {
    return this.#cache.bytes()
  }

  findNow(id: string): Uint8Array | null {
    const key = this.#keyById.get(id)
    return key === undefined ? null : (this.#cache.get(key) ?? null)
  }

  async insert(item: Item): Promise<void> {
    if (this.#keyById.has(item.id)) throw new DuplicateIdError(item.id)
    const document = await this.#write(item.id, () =>
      this.#db.insertAsync({ _id: this.#ids.next(), ...item } as Document),
    )
    this.#keyById.set(document.id, document._id)
    this.#cache.append(document._id, serialise(document))
  }

  async update(id: string, fields: ItemFields): Promise<boolean> {
    const key = this.#keyById.get(id)
    if (key === undefined) return false
    const newId = fields.id ?? id
    if (newId !== id && this.#keyById.has(newId)) throw new DuplicateIdError(newId)
    // Matching `id` too: a write queued before ours may have renamed or removed the item.
    const { affectedDocuments } = await this.#write(newId, () =>
      this.#db.updateAsync({ _id: key, id }, { $set: fields }, { returnUpdatedDocs: true }),
    )
    if (!affectedDocuments) return false
    const document = affectedDocuments as Document
    this.#keyById.delete(id)
    this.#keyById.set(document.id, key)
    this.#cache.replace(key, serialise(document))
    return true
  }

  async remove(id: string): Promise<boolean> {
    const key = this.#keyById.get(id)
    if (key === undefined) return false
    if ((await this.#db.removeAsync({ _id: key, id }, {})) === 0) return false
    this.#keyById.delete(id)
    this.#cache.remove(key)
    return true
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.#stopAppending()
    await this.#db.compactDatafileAsync()
  }

  /** Runs a write, turning the database's unique-index violation into a DuplicateIdError. */
  async #write<T>(id: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (error) {
      if ((error as { errorType?: string }).errorType === 'uniqueViolated') {
        throw new DuplicateIdError(id)
      }
      throw error
    }
  }
}

function* serialisedOneByOne(documents: Document[]): Generator<[string, string]> {
  for (const document of documents) yield [document._id, JSON.stringify(document)]
}

function serialise(document: Document): Buffer {
  return Buffer.from(JSON.stringify(document))
}
