import type { Document } from 'bson'
import { CommandError } from './command-error.js'
import { shellText } from './documents.js'
import { duplicateKey, indexKeys, keyText } from './index-keys.js'
import { alreadyThere, type IndexSpec, idIndex, normalized, sameValue } from './index-specs.js'

/**
 * The indexes of one collection, and what the unique ones hold: each unique index (`_id_`
 * always) keeps its keys, so a write that would repeat one is refused with E11000 before it
 * is made; they also find the document of an equality (`lookup`). Others are only listed.
 */
export class Indexes {
  readonly #namespace: string
  readonly #specs: IndexSpec[] = [idIndex]
  /** For each unique index, by name: the document holding each key. */
  readonly #keys = new Map<string, Map<string, Document>>([['_id_', new Map()]])

  constructor(namespace: string) {
    this.#namespace = namespace
  }

  list(): IndexSpec[] {
    return this.#specs.map((spec) => ({ ...spec }))
  }

  /** The TTL indexes: the field each watches and after how many seconds its date expires. */
  ttl(): { field: string; seconds: number }[] {
    return this.#specs.flatMap(({ key, expireAfterSeconds }) => {
      const [field] = Object.keys(key)
      return expireAfterSeconds === undefined || !field
        ? []
        : [{ field, seconds: expireAfterSeconds }]
    })
  }

  /** The document whose `_id` is `id`. */
  byId(id: unknown): Document | undefined {
    return this.#keys.get('_id_')?.get(keyText({ _id: id }))
  }

  /**
   * The one document that may match a filter holding `field: value` (a string or an ObjectId),
   * read from a unique index on that field alone; undefined when no such index serves it. An
   * array holding the value is a key of its own (multikey), so such a document is found too.
   */
  lookup(field: string, value: unknown): { found: Document | undefined } | undefined {
    const spec = this.#specs.find(
      (one) =>
        (one === idIndex || (one.unique && !one.sparse && !one.partialFilterExpression)) &&
        !one.collation &&
        Object.keys(one.key).join() === field,
    )
    if (!spec) return undefined
    return { found: this.#keys.get(spec.name)?.get(keyText({ [field]: value })) }
  }

  /** @throws E11000 when `document` would take a key that a document other than `replacing` holds. */
  check(document: Document, replacing?: Document): void {
    for (const spec of this.#uniques()) {
      const held = this.#keys.get(spec.name)
      for (const key of indexKeys(spec, document)) {
        const holder = held?.get(keyText(key))
        if (holder && holder !== replacing) throw duplicateKey(this.#namespace, spec, key)
      }
    }
  }

  add(document: Document): void {
    for (const spec of this.#uniques()) {
      const held = this.#keys.get(spec.name)
      for (const key of indexKeys(spec, document)) held?.set(keyText(key), document)
    }
  }

  remove(document: Document): void {
    for (const spec of this.#uniques()) {
      const held = this.#keys.get(spec.name)
      for (const key of indexKeys(spec, document)) {
        if (held?.get(keyText(key)) === document) held.delete(keyText(key))
      }
    }
  }

  /**
   * Creates the indexes not there yet, all or none. @throws IndexOptionsConflict (85) for an
   * index that exists with other options or under another name, IndexKeySpecsConflict (86) for
   * a name taken by other keys, E11000 for a unique index over documents that repeat a key.
   * @returns how many indexes there were before and are now
   */
  create(requested: Document[], documents: Document[]): { before: number; after: number } {
    const before = this.#specs.length
    const added: IndexSpec[] = []
    for (const spec of requested.map(normalized)) {
      if (alreadyThere(this.#specs, spec) || added.some((one) => one.name === spec.name)) continue
      added.push(spec)
    }
    // Every unique index is checked before any is made.
    const unique = added.filter((spec) => spec.unique)
    const held = new Map(unique.map((spec) => [spec.name, this.#keysOf(spec, documents)]))
    for (const spec of added) {
      this.#specs.push(spec)
      const keys = held.get(spec.name)
      if (keys) this.#keys.set(spec.name, keys)
    }
    return { before, after: this.#specs.length }
  }

  /** @returns how many indexes there were; `*` drops all but `_id_`. */
  drop(which: unknown): number {
    const before = this.#specs.length
    const names = which === '*' ? this.#specs.map(({ name }) => name) : [which].flat()
    for (const name of names) {
      const at = this.#specs.findIndex((spec) => spec.name === name || sameValue(spec.key, name))
      if (at < 0) throw new CommandError('IndexNotFound', `index not found with name [${name}]`)
      if (at === 0) {
        if (which === '*') continue
        throw new CommandError('InvalidOptions', 'cannot drop _id index')
      }
      this.#keys.delete(this.#specs[at]?.name ?? '')
      this.#specs.splice(at, 1)
    }
    return before
  }

  /** `collMod`'s `index`: a TTL changed, or an index hidden; answers the old and new values. */
  modify(change: Document): Document {
    const spec = this.#specs.find(
      (one) =>
        one.name === change.name || (change.keyPattern && sameValue(one.key, change.keyPattern)),
    )
    if (!spec) {
      const which = change.name ?? shellText(change.keyPattern)
      throw new CommandError(
        'IndexNotFound',
        `cannot find index ${which} for ns ${this.#namespace}`,
      )
    }
    const answer: Document = {}
    if (change.expireAfterSeconds !== undefined) {
      answer.expireAfterSeconds_old = spec.expireAfterSeconds
      spec.expireAfterSeconds = Number(change.expireAfterSeconds)
      answer.expireAfterSeconds_new = spec.expireAfterSeconds
    }
    if (change.hidden !== undefined) {
      answer.hidden_old = spec.hidden ?? false
      spec.hidden = Boolean(change.hidden)
      answer.hidden_new = spec.hidden
    }
    return answer
  }

  #uniques(): IndexSpec[] {
    return this.#specs.filter((spec) => spec === idIndex || spec.unique)
  }

  /** The document holding each key of a new unique index. @throws E11000 at a repeated key */
  #keysOf(spec: IndexSpec, documents: Document[]): Map<string, Document> {
    const held = new Map<string, Document>()
    for (const document of documents) {
      for (const key of indexKeys(spec, document)) {
        const text = keyText(key)
        const holder = held.get(text)
        if (holder && holder !== document) throw duplicateKey(this.#namespace, spec, key)
        held.set(text, document)
      }
    }
    return held
  }
}
