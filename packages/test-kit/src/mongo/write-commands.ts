import type { Document } from 'bson'
import type { Catalog } from './catalog.js'
import type { Collection } from './collection.js'
import { asCommandError, CommandError } from './command-error.js'
import { sameBytes } from './documents.js'
import { select } from './query.js'
import { applyUpdate, kindOf, upsertSeed } from './updates.js'

/** `insert`: each document in turn; ordered, the first refused ends the batch. */
export function insert(catalog: Catalog, body: Document): Document {
  const documents = body.documents as Document[]
  return eachStatement(body, documents, (document) => {
    catalog.obtain(body.$db, body.insert).insert(document)
    return { n: 1 }
  })
}

/** `update`: each statement's `q` and `u`, with `upsert`, `multi` and `arrayFilters`. */
export function update(catalog: Catalog, body: Document): Document {
  const upserted: Document[] = []
  let nModified = 0
  const answer = eachStatement(body, body.updates as Document[], (statement, index) => {
    const { q, u, upsert = false, multi = false, arrayFilters, collation } = statement
    if (multi && kindOf(u) === 'replacement') {
      throw new CommandError(
        'FailedToParse',
        'multi update is not supported for replacement-style update',
      )
    }
    const collection = catalog.get(body.$db, body.update)
    const candidates = collection?.candidates(q, collation) ?? []
    const matched = select(candidates, { filter: q, collation, limit: multi ? 0 : 1 })
    if (matched.length === 0 && upsert) {
      const { _id } = upsertOne(catalog.obtain(body.$db, body.update), q, u, arrayFilters)
      upserted.push({ index, _id })
      return { n: 1 }
    }
    for (const document of matched) {
      if (updateOne(collection as Collection, document, u, arrayFilters) !== document) nModified++
    }
    return { n: matched.length }
  })
  return { ...answer, nModified, ...(upserted.length > 0 && { upserted }) }
}

/** `delete`: each statement's `q`, the first match (`limit: 1`) or all (`limit: 0`). */
export function remove(catalog: Catalog, body: Document): Document {
  return eachStatement(body, body.deletes as Document[], ({ q, limit, collation }) => {
    const collection = catalog.get(body.$db, body.delete)
    const candidates = collection?.candidates(q, collation) ?? []
    const matched = select(candidates, { filter: q, collation, limit })
    for (const document of matched) collection?.remove(document)
    return { n: matched.length }
  })
}

/** Applies `u` to `document`; answers the document after it, `document` itself when unchanged. */
export function updateOne(
  collection: Collection,
  document: Document,
  u: Document | Document[],
  arrayFilters?: Document[],
): Document {
  const next = applyUpdate(document, u, { arrayFilters })
  if (sameBytes(next, document)) return document
  collection.replace(document, next, kindOf(u) === 'replacement' ? 'replace' : 'update')
  return next
}

/** Inserts what an upsert that matched nothing makes of `q` and `u`; answers it. */
export function upsertOne(
  collection: Collection,
  q: Document,
  u: Document | Document[],
  arrayFilters?: Document[],
): Document {
  const seed = upsertSeed(q, kindOf(u))
  return collection.insert(applyUpdate(seed, u, { arrayFilters, inserting: true }))
}

/**
 * Runs `statement` for each of `statements`: the sum of their `n`, and a write error for each
 * refused (at its index); an ordered batch (the default) stops at the first.
 */
function eachStatement<T>(
  body: Document,
  statements: T[],
  statement: (one: T, index: number) => { n: number },
): Document {
  const writeErrors: Document[] = []
  let n = 0
  for (const [index, one] of statements.entries()) {
    try {
      n += statement(one, index).n
    } catch (error) {
      writeErrors.push(asCommandError(error).writeError(index))
      if (body.ordered !== false) break
    }
  }
  return { n, ...(writeErrors.length > 0 && { writeErrors }) }
}
