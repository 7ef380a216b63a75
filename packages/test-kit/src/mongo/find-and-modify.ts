import type { Document } from 'bson'
import type { Catalog } from './catalog.js'
import { CommandError } from './command-error.js'
import { select } from './query.js'
import { updateOne, upsertOne } from './write-commands.js'

/**
 * `findAndModify`: the first document `query` matches in `sort` order, removed or updated
 * (operators, a replacement or a pipeline), or upserted; answers it as it was, or as it is
 * (`new`), through the projection `fields`, with `lastErrorObject`.
 */
export function findAndModify(catalog: Catalog, body: Document): Document {
  const { query = {}, sort, update, upsert = false, remove = false, fields, arrayFilters } = body
  if (remove && (update !== undefined || upsert)) {
    throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true')
  }
  if (!remove && update === undefined) {
    throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified')
  }
  const collection = catalog.get(body.$db, body.findAndModify)
  const documents = collection?.candidates(query, body.collation) ?? []
  const [found] = select(documents, { filter: query, sort, limit: 1, collation: body.collation })
  const answer = (value: Document | undefined, lastErrorObject: Document) => ({
    lastErrorObject,
    value: value && fields ? (select([value], { projection: fields })[0] ?? null) : (value ?? null),
  })
  if (found && collection && remove) {
    collection.remove(found)
    return answer(found, { n: 1 })
  }
  if (found && collection) {
    const after = updateOne(collection, found, update, arrayFilters)
    return answer(body.new ? after : found, { n: 1, updatedExisting: true })
  }
  if (!upsert) return answer(undefined, { n: 0, ...(!remove && { updatedExisting: false }) })
  const inserted = upsertOne(
    catalog.obtain(body.$db, body.findAndModify),
    query,
    update,
    arrayFilters,
  )
  return answer(body.new ? inserted : undefined, {
    n: 1,
    updatedExisting: false,
    upserted: inserted._id,
  })
}
