import type { Document } from 'bson'
import { Aggregator } from 'mingo/aggregator'
import { Query } from 'mingo/query'
import type { CollationSpec, Options } from 'mingo/types'
import { codePointContext } from './code-point-order.js'

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
 * mingo's options for a command: its operators, but strings ordered by code point as in MongoDB
 * (`codePointContext`), scripts off (MongoDB would run `$where` on the server; mingo would want
 * a function, which no command can carry), the command's collation.
 */
export function mingoOptions(collation?: Document, extra: Partial<Options> = {}): Partial<Options> {
  return {
    context: codePointContext,
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
  const options = mingoOptions(collation)
  let found = new Query(filter, options).find<Document>(source as Document[]).all()
  // The pipeline's `$sort`, not the cursor's: only the pipeline's orders strings by code point.
  if (Object.keys(sort).length > 0) found = runPipeline(found, [{ $sort: sort }], options)
  if (skip || limit) found = found.slice(skip ?? 0, limit ? (skip ?? 0) + limit : undefined)
  if (!projection || Object.keys(projection).length === 0) return found
  return found.map((document) => project(document, projection))
}

/** The documents an aggregation pipeline answers, with `mingoOptions`' operators. */
export function runPipeline(
  documents: readonly Document[],
  pipeline: Document[],
  options: Partial<Options> = mingoOptions(),
): Document[] {
  return new Aggregator(pipeline, options).run<Document>(documents as Document[])
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
