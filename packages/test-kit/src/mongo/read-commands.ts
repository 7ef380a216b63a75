import { calculateObjectSize, type Document } from 'bson'
import type { Catalog } from './catalog.js'
import { CommandError } from './command-error.js'
import type { Cursors } from './cursors.js'
import { mingoOptions, runPipeline, select } from './query.js'

/** `find`: filter, sort, projection, skip and limit (negative: one batch), in batches. */
export function find(catalog: Catalog, cursors: Cursors, body: Document): Document {
  const { filter, sort, projection, skip, limit = 0, batchSize, singleBatch, collation } = body
  const collection = catalog.get(body.$db, body.find)
  const found = select(collection?.candidates(filter, collation) ?? [], {
    filter,
    sort,
    projection,
    skip,
    limit: Math.abs(limit),
    collation,
  })
  return cursors.first(`${body.$db}.${body.find}`, found, {
    batchSize: limit < 0 ? -limit : batchSize,
    singleBatch: singleBatch === true || limit < 0,
  })
}

/**
 * `aggregate` (but `$changeStream`): the pipeline run by mingo over the collection, `$lookup`
 * reading the other collections of the database. `$out` and `$merge` are refused: they would
 * write past the indexes and the change log.
 */
export function aggregate(catalog: Catalog, cursors: Cursors, body: Document): Document {
  const pipeline = body.pipeline as Document[]
  for (const stage of pipeline) {
    const [name] = Object.keys(stage)
    if (name === '$out' || name === '$merge') {
      throw new CommandError('IllegalOperation', `${name} is not supported by the test server`)
    }
  }
  if (body.explain) throw new CommandError('IllegalOperation', 'the test server does not explain')
  const db: string = body.$db
  const collection =
    typeof body.aggregate === 'string' ? catalog.get(db, body.aggregate) : undefined
  const [first, ...rest] = pipeline
  if (first?.$collStats) {
    const stats = collectionStats(collection?.documents ?? [], first.$collStats)
    const results = runPipeline([stats], rest, mingoOptions(body.collation))
    return cursors.first(`${db}.${body.aggregate}`, results, { batchSize: body.cursor?.batchSize })
  }
  const options = mingoOptions(body.collation, {
    collectionResolver: (name) => [...(catalog.get(db, name)?.documents ?? [])],
    ...(body.let && { variables: body.let }),
  })
  const results = runPipeline([...(collection?.documents ?? [])], pipeline, options)
  const namespace = `${db}.${collection ? body.aggregate : '$cmd.aggregate'}`
  return cursors.first(namespace, results, { batchSize: body.cursor?.batchSize })
}

/**
 * The one document a `$collStats` stage answers, as far as the test server knows a collection:
 * with `storageStats`, its document count and data size (the documents' BSON), no more.
 */
function collectionStats(documents: readonly Document[], asked: Document): Document {
  if (!asked.storageStats) return {}
  const size = documents.reduce((sum, document) => sum + calculateObjectSize(document), 0)
  return { storageStats: { count: documents.length, size } }
}

/** `count` (the driver's `estimatedDocumentCount`, and `count` with a query). */
export function count(catalog: Catalog, body: Document): Document {
  const { query, skip, limit, collation } = body
  const documents = catalog.get(body.$db, body.count)?.candidates(query, collation) ?? []
  return {
    n: select(documents, { filter: query, skip, limit: Math.abs(limit ?? 0), collation }).length,
  }
}
