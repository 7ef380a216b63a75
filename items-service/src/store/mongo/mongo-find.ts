import { type Document, ObjectId, type Sort } from 'mongodb'
import type { ItemQuery, PagePosition } from '../item-store.js'

/** What `find` is given for an ItemQuery: the database filters, sorts and limits. */
export type MongoFind = { filter: Document; sort: Sort; limit?: number }

const objectIdHex = /^[0-9a-f]{24}$/
/** Matches no document: for a filter no stored item can satisfy. */
const nothing = { _id: { $in: [] } }

/**
 * Translates a query of the port into one MongoDB runs. `limit` is one more than the page's, so
 * that a further item says a next page exists. A sort on `id` needs no tie-breaker: the unique
 * index allows no ties, and that index then serves the sort either way.
 * @throws RangeError when `after` is not a position of this store (an `_id` that is no
 * ObjectId, or no value while sorted)
 */
export function toMongoFind({ filters, sort, limit, after }: ItemQuery): MongoFind {
  const clauses = filters.map(([field, value]) => fieldMatches(field, value))
  if (after) clauses.push(afterPosition(after, sort))
  const filter = clauses.length <= 1 ? (clauses[0] ?? {}) : { $and: clauses }
  const order: Sort = !sort
    ? { _id: 1 }
    : sort.field === 'id'
      ? { id: sort.descending ? -1 : 1 }
      : { [sort.field]: sort.descending ? -1 : 1, _id: 1 }
  return limit === undefined ? { filter, sort: order } : { filter, sort: order, limit: limit + 1 }
}

/**
 * A top-level field equal to `value` as the port means it: the string, or the number, boolean
 * or null whose JSON text it is. Not an array holding it (MongoDB's equality looks into arrays),
 * and, for null, not a missing field (MongoDB's null matches those too).
 */
function fieldMatches(field: string, value: string): Document {
  if (field === '_id') return objectIdHex.test(value) ? { _id: new ObjectId(value) } : nothing
  // Stored items cannot have such names (they are refused on write); MongoDB would read them as
  // a path or an operator.
  if (field.startsWith('$') || field.includes('.')) return nothing
  const values = [value, ...scalarsWritten(value)]
  const match: Document = { $in: values, $not: { $type: 'array' } }
  if (values.includes(null)) match.$exists = true
  return { [field]: match }
}

/** The number, boolean or null whose JSON text is exactly `text`, if any. */
function scalarsWritten(text: string): (number | boolean | null)[] {
  if (text === 'true') return [true]
  if (text === 'false') return [false]
  if (text === 'null') return [null]
  const number = Number(text)
  return text !== '' && JSON.stringify(number) === text ? [number] : []
}

/** The items after `position` in the query's order; ties on the sort field go by `_id`. */
function afterPosition({ _id, value }: PagePosition, sort: ItemQuery['sort']): Document {
  if (!objectIdHex.test(_id)) throw new RangeError(`'${_id}' is not an _id of this store`)
  const id = new ObjectId(_id)
  if (!sort) return { _id: { $gt: id } }
  if (value === undefined) throw new RangeError('a position in a sorted query needs its value')
  const beyond = sort.descending ? '$lt' : '$gt'
  return {
    $or: [{ [sort.field]: { [beyond]: value } }, { [sort.field]: value, _id: { $gt: id } }],
  }
}

/** Where a page ends: its last item's `_id`, and its value of the sort field when sorted. */
export function positionOf(document: Document, field?: string): PagePosition {
  const _id = String(document._id)
  return field === undefined ? { _id } : { _id, value: String(document[field]) }
}
