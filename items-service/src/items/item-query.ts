import type { ItemQuery, SortField } from '../store/item-store.js'
import { decodeCursor } from './item-query.cursor.js'

/** One refused parameter, as the `issues` of a 400 name it. */
export type QueryIssue = { path: string; message: string }

/** A query string read as a query of `GET /items` (README › Query). */
export type ParsedItemQuery = {
  query: ItemQuery
  /** Every parameter but `cursor`, encoded, in the order given: a next page's link repeats them. */
  parameters: string
}

const sorts = new Map<string, NonNullable<ItemQuery['sort']>>(
  (['id', 'name', 'genre'] satisfies SortField[]).flatMap((field) => [
    [field, { field, descending: false }],
    [`-${field}`, { field, descending: true }],
  ]),
)
const sortIssue = `must be one of ${[...sorts.keys()].join(', ')}`
const maxLimit = 1000
const maxFieldNameLength = 100
const prototypeNames = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Reads a URL's query string (`?genre=Crime&sort=-name&limit=20`): `sort`, `limit` and `cursor`
 * shape the answer, every other parameter is an exact-match filter on the top-level field it
 * names. Each refused parameter is one issue; nothing is asked of the store then.
 */
export function parseItemQuery(search: string): ParsedItemQuery | { issues: QueryIssue[] } {
  const issues: QueryIssue[] = []
  const given = new Map<string, string>()
  for (const [name, value] of decodedPairs(search, issues)) {
    if (!given.has(name)) given.set(name, value)
    else if (!issues.some((issue) => issue.path === name)) {
      issues.push({ path: name, message: 'must be given at most once' })
    }
  }
  const filters: [string, string][] = []
  const query: ItemQuery = { filters }
  for (const [name, value] of given) {
    switch (name) {
      case 'sort': {
        const sort = sorts.get(value)
        if (sort) query.sort = sort
        else issues.push({ path: name, message: sortIssue })
        break
      }
      case 'limit': {
        const limit = /^\d{1,4}$/.test(value) ? Number(value) : 0
        if (limit >= 1 && limit <= maxLimit) query.limit = limit
        else issues.push({ path: name, message: `must be an integer from 1 to ${maxLimit}` })
        break
      }
      case 'cursor':
        break // read once the sort it must belong to is known
      default: {
        const refused = reasonToRefuse(name)
        if (refused) issues.push({ path: name, message: refused })
        else filters.push([name, value])
      }
    }
  }
  const cursor = given.get('cursor')
  // A refused sort is one issue; the cursor cannot be judged against it.
  if (cursor !== undefined && (!given.has('sort') || query.sort)) {
    const decoded = decodeCursor(cursor, query.sort)
    if ('problem' in decoded) issues.push({ path: 'cursor', message: decoded.problem })
    else query.after = decoded.position
  }
  if (issues.length > 0) return { issues }
  const parameters = [...given]
    .filter(([name]) => name !== 'cursor')
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
  return { query, parameters: parameters.join('&') }
}

/** Why a parameter cannot name a field to filter on, or null when it can. */
function reasonToRefuse(name: string): string | null {
  if (name === '') return 'a filter needs a field name'
  if (name.length > maxFieldNameLength) {
    return `field names must not be longer than ${maxFieldNameLength} characters`
  }
  if (name === '_id') return "'_id' is the database's own key, not a field to filter on"
  if (prototypeNames.has(name)) return `'${name}' is a reserved field name`
  if (name.startsWith('$')) return 'field names must not start with $'
  if (name.includes('.')) return 'field names must not contain .'
  return null
}

/**
 * The name-value pairs of a query string, decoded as forms encode them (`+` is a space). A
 * pair that is not percent-encoded UTF-8 is an issue rather than a guess at what it meant.
 */
function* decodedPairs(search: string, issues: QueryIssue[]): Generator<[string, string]> {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (pair === '') continue
    const equals = pair.indexOf('=')
    const [rawName, rawValue] =
      equals < 0 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)]
    const name = decoded(rawName)
    const value = decoded(rawValue)
    if (name === undefined || value === undefined) {
      issues.push({ path: name ?? rawName, message: 'is not percent-encoded UTF-8' })
    } else yield [name, value]
  }
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return undefined
  }
}
