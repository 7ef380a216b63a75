import type { Document } from 'bson'
import type { Catalog } from './catalog.js'
import { CommandError } from './command-error.js'
import type { Cursors } from './cursors.js'

/** `createIndexes`: made all at once, the collection too when it is new. */
export function createIndexes(catalog: Catalog, body: Document): Document {
  const existed = catalog.get(body.$db, body.createIndexes)
  const collection = existed ?? catalog.obtain(body.$db, body.createIndexes)
  try {
    const { before, after } = collection.indexes.create(body.indexes, [...collection.documents])
    return {
      numIndexesBefore: before,
      numIndexesAfter: after,
      ...(before === after && { note: 'all indexes already exist' }),
      createdCollectionAutomatically: !existed,
    }
  } catch (error) {
    // A collection made for indexes that could not be made is not left behind.
    if (!existed) catalog.forget(body.$db, body.createIndexes)
    throw error
  }
}

/** `listIndexes`, in the order they were made. @throws NamespaceNotFound */
export function listIndexes(catalog: Catalog, cursors: Cursors, body: Document): Document {
  const namespace = `${body.$db}.${body.listIndexes}`
  const collection = catalog.get(body.$db, body.listIndexes)
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${namespace}`)
  return cursors.first(namespace, collection.indexes.list(), { batchSize: body.cursor?.batchSize })
}

/** `dropIndexes`: by name, key pattern, a list of names, or `*` (all but `_id_`). */
export function dropIndexes(catalog: Catalog, body: Document): Document {
  const namespace = `${body.$db}.${body.dropIndexes}`
  const collection = catalog.get(body.$db, body.dropIndexes)
  if (!collection) throw new CommandError('NamespaceNotFound', `ns not found ${namespace}`)
  return { nIndexesWas: collection.indexes.drop(body.index) }
}

/**
 * `collMod`: an index's `expireAfterSeconds` (or `hidden`) changed in place, and the
 * collection's `changeStreamPreAndPostImages`.
 */
export function collMod(catalog: Catalog, body: Document): Document {
  const collection = catalog.get(body.$db, body.collMod)
  if (!collection) {
    throw new CommandError('NamespaceNotFound', `ns does not exist: ${body.$db}.${body.collMod}`)
  }
  const answer = body.index ? collection.indexes.modify(body.index) : {}
  if (body.changeStreamPreAndPostImages) {
    collection.keepsPreImages = body.changeStreamPreAndPostImages.enabled === true
  }
  return answer
}
