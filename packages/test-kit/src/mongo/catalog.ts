import type { ChangeLog } from './change-log.js'
import { Collection } from './collection.js'
import { CommandError } from './command-error.js'

/**
 * Every database and its collections, by name. A database or a collection comes to be on its
 * first write (or `create`, `createIndexes`), as in MongoDB; a read of one that does not exist
 * finds nothing.
 */
export class Catalog {
  readonly changes: ChangeLog
  readonly #databases = new Map<string, Map<string, Collection>>()

  constructor(changes: ChangeLog) {
    this.changes = changes
  }

  get(db: string, name: string): Collection | undefined {
    return this.#databases.get(db)?.get(name)
  }

  /** The collection, made now if it does not exist. */
  obtain(db: string, name: string): Collection {
    return this.get(db, name) ?? this.create(db, name)
  }

  /** @throws NamespaceExists when it exists */
  create(db: string, name: string): Collection {
    if (!name || name.includes('$')) {
      throw new CommandError('BadValue', `Invalid collection name: ${name}`)
    }
    if (this.get(db, name)) {
      throw new CommandError('NamespaceExists', `Collection ${db}.${name} already exists.`)
    }
    const collection = new Collection(db, name, this.changes)
    const collections = this.#databases.get(db) ?? new Map<string, Collection>()
    this.#databases.set(db, collections.set(name, collection))
    return collection
  }

  collections(db: string): Collection[] {
    return [...(this.#databases.get(db)?.values() ?? [])]
  }

  all(): Collection[] {
    return [...this.#databases.values()].flatMap((collections) => [...collections.values()])
  }

  databases(): string[] {
    return [...this.#databases.keys()]
  }

  /** Removes a collection that was never written to, without a change. */
  forget(db: string, name: string): void {
    this.#databases.get(db)?.delete(name)
    if (this.#databases.get(db)?.size === 0) this.#databases.delete(db)
  }

  /** Drops the collection, if it exists: a `drop` change. */
  drop(db: string, name: string): Collection | undefined {
    const collection = this.get(db, name)
    if (!collection) return undefined
    this.#databases.get(db)?.delete(name)
    this.changes.record({ operationType: 'drop', db, coll: name })
    return collection
  }

  /** Drops each collection (a `drop` change each), then the database (`dropDatabase`). */
  dropDatabase(db: string): void {
    for (const collection of this.collections(db)) this.drop(db, collection.name)
    if (this.#databases.delete(db)) this.changes.record({ operationType: 'dropDatabase', db })
  }
}
