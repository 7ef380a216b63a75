import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import Datastore from '@seald-io/nedb'
import type { Item, ItemFields, StoredItem } from '../items/item.schema.js'
import { DuplicateIdError, type ItemStore } from './item-store.js'
import { joinJsonArray } from './json-list.js'
import { ObjectIdSequence } from './object-id.js'

type Document = StoredItem & Record<string, unknown>

/**
 * The default store: an embedded document database (NeDB, MongoDB's query and update language)
 * in one append-only file under `dataDir`. A write resolves once the database has written it to
 * the file, so an acknowledged write survives the process being killed.
 *
 * This process is the file's only writer, so the store keeps every item's JSON bytes and the
 * list's bytes in memory and updates them on each write: a read serialises nothing, and a write
 * re-serialises only the item it changed.
 */
export class EmbeddedItemStore implements ItemStore {
  readonly #db: Datastore<Document>
  readonly #ids = new ObjectIdSequence()
  /** Serialised items by `_id`, in insertion order. */
  readonly #bytesByKey = new Map<string, Buffer>()
  /** `_id` by public `id`. */
  readonly #keyById = new Map<string, string>()
  #list: Buffer | null = null

  private constructor(db: Datastore<Document>) {
    this.#db = db
  }

  /** Opens (or creates) the store in `dataDir/<collection>.db`. */
  static async open(dataDir: string, collection = 'movies'): Promise<EmbeddedItemStore> {
    await mkdir(dataDir, { recursive: true })
    const db = new Datastore<Document>({ filename: join(dataDir, `${collection}.db`) })
    await db.loadDatabaseAsync()
    await db.ensureIndexAsync({ fieldName: 'id', unique: true })
    const store = new EmbeddedItemStore(db)
    const documents = (await db.findAsync({})) as Document[]
    documents.sort((a, b) => (a._id < b._id ? -1 : 1))
    for (const document of documents) store.#remember(document)
    return store
  }

  async list(): Promise<Uint8Array> {
    this.#list ??= joinJsonArray(this.#bytesByKey.values())
    return this.#list
  }

  async find(id: string): Promise<Uint8Array | null> {
    const key = this.#keyById.get(id)
    return key === undefined ? null : (this.#bytesByKey.get(key) ?? null)
  }

  async insert(item: Item): Promise<void> {
    if (this.#keyById.has(item.id)) throw new DuplicateIdError(item.id)
    const document = await this.#write(item.id, () =>
      this.#db.insertAsync({ _id: this.#ids.next(), ...item } as Document),
    )
    this.#remember(document)
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
    this.#keyById.delete(id)
    this.#remember(affectedDocuments as Document)
    return true
  }

  async remove(id: string): Promise<boolean> {
    const key = this.#keyById.get(id)
    if (key === undefined) return false
    if ((await this.#db.removeAsync({ _id: key, id }, {})) === 0) return false
    this.#keyById.delete(id)
    this.#bytesByKey.delete(key)
    this.#list = null
    return true
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    await this.#db.compactDatafileAsync()
  }

  #remember(document: Document): void {
    this.#ids.observe(document._id)
    this.#keyById.set(document.id, document._id)
    this.#bytesByKey.set(document._id, Buffer.from(JSON.stringify(document)))
    this.#list = null
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
