import { type Document, ObjectId, UUID } from 'bson'
import type { ChangeLog, NewChange } from './change-log.js'
import { CommandError } from './command-error.js'
import { withIdFirst } from './documents.js'
import { Indexes } from './indexes.js'
import { describeUpdate } from './updates.js'

/**
 * One collection: its documents in insertion order (the natural order of a find without a
 * sort), its indexes, and each write told to the change log. Documents are never changed in
 * place: a write puts a new object where the old one was, so cursors and change events that
 * hold the old one keep it as it was.
 */
export class Collection {
  readonly db: string
  readonly name: string
  readonly uuid = new UUID()
  readonly indexes: Indexes
  /** `changeStreamPreAndPostImages`: whether change events may carry the document before and after. */
  keepsPreImages = false
  readonly #changes: ChangeLog
  #documents: Document[] = []

  constructor(db: string, name: string, changes: ChangeLog) {
    this.db = db
    this.name = name
    this.indexes = new Indexes(`${db}.${name}`)
    this.#changes = changes
  }

  get namespace(): string {
    return `${this.db}.${this.name}`
  }

  get documents(): readonly Document[] {
    return this.#documents
  }

  /** Stores `document`, `_id` first (an ObjectId made when it has none). @throws E11000 */
  insert(document: Document): Document {
    if (Array.isArray(document._id) || document._id instanceof RegExp) {
      throw new CommandError('InvalidIdField', "The '_id' value cannot be of type array or regex")
    }
    const stored = withIdFirst(document)
    this.indexes.check(stored)
    this.#documents.push(stored)
    this.indexes.add(stored)
    this.#record({ operationType: 'insert', documentKey: { _id: stored._id }, document: stored })
    return stored
  }

  /** Puts `next` in the place of `current`: an update, or a replace. @throws E11000 */
  replace(current: Document, next: Document, operationType: 'update' | 'replace'): void {
    this.indexes.check(next, current)
    this.#documents[this.#documents.indexOf(current)] = next
    this.indexes.remove(current)
    this.indexes.add(next)
    this.#record({
      operationType,
      documentKey: { _id: next._id },
      ...(operationType === 'replace' && { document: next }),
      ...(operationType === 'update' && { updateDescription: describeUpdate(current, next) }),
      ...(this.keepsPreImages && { before: current, after: next }),
    })
  }

  remove(document: Document): void {
    const at = this.#documents.indexOf(document)
    if (at < 0) return
    this.#documents.splice(at, 1)
    this.indexes.remove(document)
    this.#record({
      operationType: 'delete',
      documentKey: { _id: document._id },
      ...(this.keepsPreImages && { before: document }),
    })
  }

  /**
   * The documents `filter` may match, in natural order: all of them, or, where the filter asks
   * a field with a unique index of its own for a string or an ObjectId, the one holding it (a
   * MongoDB server would read that index too). The filter itself is still evaluated on them.
   */
  candidates(filter: Document = {}, collation?: Document): readonly Document[] {
    if (collation) return this.#documents
    for (const [field, value] of Object.entries(filter)) {
      if (field.startsWith('$') || !(typeof value === 'string' || value instanceof ObjectId))
        continue
      const indexed = this.indexes.lookup(field, value)
      if (indexed) return indexed.found ? [indexed.found] : []
    }
    return this.#documents
  }

  /** The document whose `_id` is `id`, as it is now. */
  byId(id: unknown): Document | undefined {
    return this.indexes.byId(id)
  }

  #record(change: Omit<NewChange, 'db' | 'coll'>): void {
    this.#changes.record({ db: this.db, coll: this.name, ...change })
  }
}
