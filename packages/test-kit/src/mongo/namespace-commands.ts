import type { Document } from 'bson'
import type { Catalog } from './catalog.js'
import type { Cursors } from './cursors.js'
import { select } from './query.js'

const idIndex = { v: 2, key: { _id: 1 }, name: '_id_' }

/** `create`, with `changeStreamPreAndPostImages`. @throws NamespaceExists */
export function create(catalog: Catalog, body: Document): Document {
  const collection = catalog.create(body.$db, body.create)
  collection.keepsPreImages = body.changeStreamPreAndPostImages?.enabled === true
  return {}
}

/** `drop`: the collection and its indexes; one that does not exist is no error (MongoDB 7). */
export function drop(catalog: Catalog, body: Document): Document {
  const dropped = catalog.drop(body.$db, body.drop)
  if (!dropped) return {}
  return { nIndexesWas: dropped.indexes.list().length, ns: dropped.namespace }
}

export function dropDatabase(catalog: Catalog, body: Document): Document {
  catalog.dropDatabase(body.$db)
  return { dropped: body.$db }
}

/** `listCollections`, with its `filter` (by mingo) and `nameOnly`. */
export function listCollections(catalog: Catalog, cursors: Cursors, body: Document): Document {
  const infos = catalog.collections(body.$db).map((collection) => ({
    name: collection.name,
    type: 'collection',
    options: collection.keepsPreImages ? { changeStreamPreAndPostImages: { enabled: true } } : {},
    info: { readOnly: false, uuid: collection.uuid },
    idIndex,
  }))
  const listed = select(infos, { filter: body.filter ?? {} }).map((info) =>
    body.nameOnly ? { name: info.name, type: info.type } : info,
  )
  return cursors.first(`${body.$db}.$cmd.listCollections`, listed, {
    batchSize: body.cursor?.batchSize,
  })
}

export function listDatabases(catalog: Catalog): Document {
  const databases = catalog.databases().map((name) => ({ name, sizeOnDisk: 0, empty: false }))
  return { databases, totalSize: 0 }
}
