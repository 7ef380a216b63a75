import { type Document, EJSON } from 'bson'
import { resolve } from 'mingo/util'
import { CommandError } from './command-error.js'
import { shellText } from './documents.js'
import type { IndexSpec } from './index-specs.js'
import { matches } from './query.js'

/**
 * The keys `document` has in the index, each as `{ field: value }` (MongoDB's `keyValue`): one,
 * or one per element of an array it holds, as a multikey index has; none when a sparse or
 * partial index leaves the document out. A missing field is a null key, as in MongoDB.
 */
export function indexKeys(spec: IndexSpec, document: Document): Document[] {
  const fields = Object.keys(spec.key)
  const values = fields.map((field) => resolve(document, field))
  if (spec.sparse && values.every((value) => value === undefined)) return []
  if (spec.partialFilterExpression && !matches(document, spec.partialFilterExpression)) {
    return []
  }
  let keys: Document[] = [{}]
  fields.forEach((field, n) => {
    const value = values[n]
    const each = Array.isArray(value) ? (value.length > 0 ? value : [undefined]) : [value]
    keys = keys.flatMap((key) => each.map((one) => ({ ...key, [field]: one ?? null })))
  })
  return keys
}

/** The text a key is kept under: equal keys, equal texts (types included: 1 is not "1"). */
export function keyText(key: Document): string {
  return EJSON.stringify(Object.values(key), { relaxed: false })
}

/** MongoDB's E11000, with the `keyPattern` and `keyValue` the driver hands on to its caller. */
export function duplicateKey(namespace: string, spec: IndexSpec, keyValue: Document): CommandError {
  return new CommandError(
    'DuplicateKey',
    `E11000 duplicate key error collection: ${namespace} index: ${spec.name} dup key: ${shellText(keyValue)}`,
    { keyPattern: spec.key, keyValue },
  )
}
