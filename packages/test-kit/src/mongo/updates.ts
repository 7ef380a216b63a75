import type { Document } from 'bson'
import { update } from 'mingo'
import { setValue } from 'mingo/util'
import { CommandError } from './command-error.js'
import { copy, isOperatorObject, sameBytes, withIdFirst } from './documents.js'
import { mingoOptions, runPipeline } from './query.js'

/** An update's `u`: operators (`$set`...), a replacement document, or a pipeline (an array). */
export type UpdateKind = 'operators' | 'replacement' | 'pipeline'

const pipelineStages = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
])

export function kindOf(u: Document | Document[]): UpdateKind {
  if (Array.isArray(u)) return 'pipeline'
  const keys = Object.keys(u)
  if (!keys.some((key) => key.startsWith('$'))) return 'replacement'
  const field = keys.find((key) => !key.startsWith('$'))
  if (field !== undefined) {
    throw new CommandError(
      'FailedToParse',
      `Unknown modifier: ${field}. Expected a valid update modifier or pipeline-style update specified as an array`,
    )
  }
  return 'operators'
}

/**
 * What `u` makes of `document`, evaluated by mingo, as a new document (`document` stays as it
 * is), `_id` first. `inserting`: an upsert's new document, which `$setOnInsert` also writes.
 * @throws ImmutableField when `_id` would change; mingo's refusals as CommandErrors
 */
export function applyUpdate(
  document: Document,
  u: Document | Document[],
  { arrayFilters, inserting = false }: { arrayFilters?: Document[]; inserting?: boolean } = {},
): Document {
  let next: Document
  switch (kindOf(u)) {
    case 'pipeline':
      for (const stage of u as Document[]) {
        const name = Object.keys(stage)[0] ?? ''
        if (!pipelineStages.has(name)) {
          throw new CommandError('BadValue', `${name} is not allowed to be used within an update`)
        }
      }
      next = runPipeline([copy(document)], u as Document[])[0] ?? {}
      break
    case 'replacement':
      next = { ...(document._id !== undefined && { _id: document._id }), ...u }
      break
    default: {
      const { $setOnInsert, ...operators } = u as Document
      if (inserting && $setOnInsert) operators.$set = { ...operators.$set, ...$setOnInsert }
      next = copy(document)
      update(next, operators, arrayFilters, undefined, { queryOptions: mingoOptions() })
    }
  }
  if (document._id !== undefined && !sameBytes({ _id: document._id }, { _id: next._id })) {
    throw new CommandError(
      'ImmutableField',
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    )
  }
  return next._id === undefined ? next : withIdFirst(next)
}

/**
 * The document an upsert starts from: the equalities of its filter (`{ a: 1 }`, `{ a: { $eq:
 * 1 } }`, those inside `$and`), dotted paths made nested documents. A replacement keeps only
 * the `_id`, as MongoDB does.
 */
export function upsertSeed(filter: Document, kind: UpdateKind): Document {
  const seed: Document = {}
  const take = (clauses: Document) => {
    for (const [path, value] of Object.entries(clauses)) {
      if (path === '$and' && Array.isArray(value)) value.forEach(take)
      else if (path.startsWith('$') || value instanceof RegExp) continue
      else if (!isOperatorObject(value)) setValue(seed, path, value)
      else if ('$eq' in value) setValue(seed, path, value.$eq)
    }
  }
  take(filter)
  if (kind === 'replacement') return seed._id === undefined ? {} : { _id: seed._id }
  return seed
}

/** An update event's `updateDescription`: the top-level fields set and removed. */
export function describeUpdate(before: Document, after: Document): Document {
  const updatedFields: Document = {}
  for (const [field, value] of Object.entries(after)) {
    if (!(field in before) || !sameBytes({ value }, { value: before[field] })) {
      updatedFields[field] = value
    }
  }
  const removedFields = Object.keys(before).filter((field) => !(field in after))
  return { updatedFields, removedFields, truncatedArrays: [] }
}
