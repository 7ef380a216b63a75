import type { Document } from 'bson'
import { Query } from 'mingo'
import type { CollationSpec, Options } from 'mingo/types'

/** What selects documents: a filter and how find, update, delete and findAndModify order them. */
export type Selection = {
  filter?: Document
  sort?: Document
  skip?: number
  limit?: number
  projection?: Document
  collation?: Document
}

/**
 * mingo's options for a command: scripts off (MongoDB would run `$where` on the server; mingo
 * would want a function, which no command can carry), the command's collation.
 */
export function mingoOptions(collation?: Document, extra: Partial<Options> = {}): Partial<Options> {
  return {
    scriptEnabled: false,
    ...(collation && { collation: collation as CollationSpec }),
    ...extra,
  }
}

/**
 * The documents that match, as mingo evaluates the filter, ordered, skipped, limited and
 * projected (projections may hold aggregation expressions). `$natural` orders by insertion.
 */
export function select(documents: readonly Document[], selection: Selection): Document[] {
  const { filter = {}, skip, limit, projection, collation } = selection
  const { $natural, ...sort } = selection.sort ?? {}
  const source = $natural === -1 ? [...documents].reverse() : documents
  let cursor = new Query(filter, mingoOptions(collation)).find<Document>(source as Document[])
  if (Object.keys(sort).length > 0) cursor = cursor.sort(sort)
  if (skip) cursor = cursor.skip(skip)
  if (limit) cursor = cursor.limit(limit)
  const found = cursor.all()
  if (!projection || Object.keys(projection).length === 0) return found
  return found.map((document) => project(document, projection))
}

/** Whether `document` matches `filter`. */
export function matches(document: Document, filter: Document, collation?: Document): boolean {
  return new Query(filter, mingoOptions(collation)).test(document)
}

/**
 * The projection of one document by mingo, its fields in MongoDB's order: those the document
 * has in its order (`_id` first), then the computed ones. mingo puts `_id` last and computed
 * fields first.
 */
function project(document: Document, projection: Document): Document {
  const projected =
    new Query({}, mingoOptions()).find<Document>([document], projection).all()[0] ?? {}
  const kept = Object.keys(document).filter((field) => field in projected)
  const computed = Object.keys(projected).filter((field) => !(field in document))
  return Object.fromEntries([...kept, ...computed].map((field) => [field, projected[field]]))
}
