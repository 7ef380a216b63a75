import { type Document, EJSON } from 'bson'
import { CommandError } from './command-error.js'
import { shellText } from './documents.js'

/** An index as `listIndexes` answers it. */
export type IndexSpec = {
  v: number
  key: Document
  name: string
  unique?: boolean
  sparse?: boolean
  expireAfterSeconds?: number
  partialFilterExpression?: Document
  collation?: Document
  hidden?: boolean
}

/** The index on `_id` every collection has, unique though it does not say so. */
export const idIndex: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' }

/** The options that make two indexes of one name differ (MongoDB's IndexOptionsConflict). */
const options = [
  'unique',
  'sparse',
  'expireAfterSeconds',
  'partialFilterExpression',
  'collation',
] as const

/** An index of `createIndexes` as it will be listed. @throws BadValue for one MongoDB refuses */
export function normalized(requested: Document): IndexSpec {
  const { key, name, v: _, background: __, ...rest } = requested
  if (typeof name !== 'string') throw new CommandError('BadValue', 'index must have a name')
  const spec: IndexSpec = { v: 2, key, name }
  for (const option of options) {
    if (rest[option] !== undefined && rest[option] !== false) spec[option] = rest[option]
  }
  if (spec.expireAfterSeconds !== undefined && Object.keys(key).length !== 1) {
    throw new CommandError(
      'BadValue',
      'TTL indexes are single-field indexes, compound indexes do not support TTL',
    )
  }
  return spec
}

/**
 * Whether `spec` is among `specs` as requested. @throws IndexKeySpecsConflict (86) for its name
 * on other keys, IndexOptionsConflict (85) for its name with other options, or for its keys
 * under another name, as MongoDB does
 */
export function alreadyThere(specs: IndexSpec[], spec: IndexSpec): boolean {
  const named = specs.find((one) => one.name === spec.name)
  if (named && !sameValue(named.key, spec.key)) {
    throw new CommandError('IndexKeySpecsConflict', conflict(spec, named))
  }
  if (named && !options.every((option) => sameValue(named[option], spec[option]))) {
    throw new CommandError('IndexOptionsConflict', conflict(spec, named))
  }
  if (named) return true
  // One key pattern may have several indexes only by other collations or partial filters.
  const keyed = specs.find(
    (one) =>
      sameValue(one.key, spec.key) &&
      sameValue(one.collation, spec.collation) &&
      sameValue(one.partialFilterExpression, spec.partialFilterExpression),
  )
  if (!keyed) return false
  throw new CommandError(
    'IndexOptionsConflict',
    `Index already exists with a different name: ${keyed.name}`,
  )
}

/** Whether two values are the same, types and field order included (an absent one too). */
export function sameValue(one: unknown, other: unknown): boolean {
  return EJSON.stringify({ one }) === EJSON.stringify({ one: other })
}

function conflict(requested: IndexSpec, existing: IndexSpec): string {
  return (
    'An existing index has the same name as the requested index. When index names are not ' +
    'specified, they are auto generated and can cause conflicts. Please refer to our ' +
    `documentation. Requested index: ${shellText(requested)}, existing index: ${shellText(existing)}`
  )
}
