import { calculateObjectSize, type Document, Long } from 'bson'
import { CommandError } from './command-error.js'

/** The first batch's size unless the command gives one, as MongoDB's. */
const firstBatchSize = 101
/** What one batch may weigh: MongoDB's largest document, 16 MiB. */
const batchBytes = 16 * 1024 * 1024

/** An open cursor: the documents its query found that were not answered yet. */
type Open = { namespace: string; rest: Document[] }

/**
 * The cursors of queries (`find`, `aggregate`, `listIndexes`...) whose answer did not fit in
 * one batch. A query is evaluated whole when it comes; its cursor hands out what it found.
 * Ids are shared with the change streams (`nextId`), so that no two cursors have one.
 */
export class Cursors {
  readonly #open = new Map<string, Open>()
  #lastId = 0

  nextId(): Long {
    return Long.fromNumber(++this.#lastId)
  }

  has(id: unknown): boolean {
    return this.#open.has(String(id))
  }

  /** The first batch of `documents`, and a cursor for the rest (id 0: none). */
  first(
    namespace: string,
    documents: Document[],
    { batchSize, singleBatch = false }: { batchSize?: number; singleBatch?: boolean },
  ): Document {
    const batch = take(documents, batchSize ?? firstBatchSize)
    const rest = documents.slice(batch.length)
    let id = Long.ZERO
    if (rest.length > 0 && !singleBatch) {
      id = this.nextId()
      this.#open.set(id.toString(), { namespace, rest })
    }
    return { cursor: { firstBatch: batch, id, ns: namespace } }
  }

  /** `getMore` on a cursor of documents. @throws CursorNotFound */
  more(id: unknown, batchSize?: number): Document {
    const open = this.#open.get(String(id))
    if (!open) throw new CommandError('CursorNotFound', `cursor id ${id} not found`)
    const batch = take(open.rest, batchSize || Number.POSITIVE_INFINITY)
    open.rest = open.rest.slice(batch.length)
    if (open.rest.length === 0) this.#open.delete(String(id))
    const next = open.rest.length === 0 ? Long.ZERO : Long.fromString(String(id))
    return { cursor: { nextBatch: batch, id: next, ns: open.namespace } }
  }

  /** Closes the cursors among `ids`; answers which were open. */
  kill(ids: unknown[]): unknown[] {
    return ids.filter((id) => this.#open.delete(String(id)))
  }
}

/** The first `count` documents, fewer when they would weigh more than a batch may. */
function take(documents: Document[], count: number): Document[] {
  let bytes = 0
  let taken = 0
  while (taken < Math.min(count, documents.length)) {
    bytes += calculateObjectSize(documents[taken] as Document)
    if (bytes > batchBytes && taken > 0) break
    taken++
  }
  return documents.slice(0, taken)
}
