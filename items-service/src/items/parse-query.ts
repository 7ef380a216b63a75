import type { ItemQuery, PagePosition, SortField } from '../store/item-store.js'
import { prototypeNames, reasonToRefuse } from './item.schema.js'

// The query string of `GET /items` (docs/items-service.md › Query): its parameters as the
// document states them, read into the store's ItemQuery, and the opaque cursors that continue a
// page.

/** One refused parameter, as the `issues` of a 400 name it. */
export type QueryIssue = { path: string; message: string }

/** A query string read as a query of `GET /items` (docs/items-service.md › Query). */
export type ParsedItemQuery = {
  query: ItemQuery
  /** Every parameter but `cursor`, encoded, in the order given: a next page's link repeats them. */
  parameters: string
}

const sortFields = ['id', 'name', 'genre'] as const satisfies SortField[]
const sorts = new Map<string, NonNullable<ItemQuery['sort']>>(
  sortFields.flatMap((field) => [
    [field, { field, descending: false }],
    [`-${field}`, { field, descending: true }],
  ]),
)
/** What a 400 says of a `sort` it cannot take. */
export const sortIssue = `must be one of ${[...sorts.keys()].join(', ')}`
const maxLimit = 1000
const maxFieldNameLength = 100

/**
 * The parameters as the OpenAPI document states them, from the rules `parseItemQuery` keeps
 * (docs/items-service.md › Query); none of them: exactly the list.
 */
export const queryParameters = [
  {
    name: 'filters',
    in: 'query' as const,
    required: false,
    style: 'form' as const,
    explode: true,
    // An empty example: the docs page would otherwise send a made-up filter with every try.
    example: {},
    description:
      'Exact-match filters, one parameter per top-level field (`?genre=Drama&year=1994`), all of ' +
      'which must hold. A value matches the string, or the number, boolean or null whose JSON ' +
      'text it is; arrays, objects and absent fields never match. Each field at most once.',
    schema: {
      type: 'object' as const,
      properties: Object.fromEntries(
        sortFields.map((field) => [
          field,
          { type: 'string' as const, description: `Only items whose \`${field}\` is exactly this` },
        ]),
      ),
      propertyNames: {
        // The other parameters of the query, and the names no item field can have.
        not: { enum: ['sort', 'limit', 'cursor', '_id', ...prototypeNames] },
        // Not `$` first, no `.`, no control character, as `reasonToRefuse` says of every field.
        pattern: '^[^$.\\u0000-\\u001f\\u007f-\\u009f][^.\\u0000-\\u001f\\u007f-\\u009f]*$',
        maxLength: maxFieldNameLength,
      },
      additionalProperties: { type: 'string' as const },
    },
  },
  {
    name: 'sort',
    in: 'query' as const,
    required: false,
    description:
      'Order by this field (`-`: descending), ties in insertion order; insertion order when absent',
    schema: { type: 'string' as const, enum: [...sorts.keys()] },
  },
  {
    name: 'limit',
    in: 'query' as const,
    required: false,
    description: 'At most this many items; a `Link` header with `rel="next"` names the next page',
    schema: { type: 'integer' as const, minimum: 1, maximum: maxLimit },
  },
  {
    name: 'cursor',
    in: 'query' as const,
    required: false,
    description: "Where the page starts: only as taken from the previous page's `Link` header",
    schema: { type: 'string' as const },
  },
]

/**
 * Reads a URL's query string (`?genre=Crime&sort=-name&limit=20`): `sort`, `limit` and `cursor`
 * shape the response, every other parameter is an exact-match filter on the top-level field it
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
        const refused = reasonToRefuseFilter(name)
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

/**
 * `filters[genre]`: the declared `filters` object sent as a deep object (openapi-fetch's default
 * and qs's), which would otherwise be a filter on a field of that name and silently match nothing.
 */
const deepObjectFilter = /^filters\[([^\]]*)\]$/

/** Why a parameter cannot name a field to filter on, or null when it can. */
function reasonToRefuseFilter(name: string): string | null {
  if (name === '') return 'a filter needs a field name'
  const field = deepObjectFilter.exec(name)?.[1]
  if (field !== undefined) {
    return `filters are one parameter per field: send '${field || 'genre'}=…', not '${name}=…'`
  }
  if (name.length > maxFieldNameLength) {
    return `field names must not be longer than ${maxFieldNameLength} characters`
  }
  if (name === '_id') return "'_id' is the database's own key, not a field to filter on"
  // No item can have a field the service refuses to store.
  return reasonToRefuse(name, false)
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

type Sort = ItemQuery['sort']

/** Longer than any cursor a position of a stored item makes: refused before decoding. */
const maxCursorLength = 8192
const base64url = /^[A-Za-z0-9_-]+$/
const objectId = /^[0-9a-f]{24}$/
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The `sort` parameter that orders this way (`-name`), or undefined for insertion order. */
export function sortParameter(sort: Sort): string | undefined {
  return sort && `${sort.descending ? '-' : ''}${sort.field}`
}

/**
 * The opaque `cursor` of the page after `position`: base64url of `["<_id>"]`, or of
 * `["<sort>", "<value>", "<_id>"]` when sorted, so that a cursor names the order it belongs to.
 */
export function encodeCursor(position: PagePosition, sort: Sort): string {
  const order = sortParameter(sort)
  const parts = order === undefined ? [position._id] : [order, position.value ?? '', position._id]
  return Buffer.from(JSON.stringify(parts)).toString('base64url')
}

/** Why a cursor cannot continue a query ordered by `sort`, or the position it names. */
export type DecodedCursor = { position: PagePosition } | { problem: string }

/** Reads a `cursor` that `encodeCursor` made for a query ordered by `sort`. */
export function decodeCursor(cursor: string, sort: Sort): DecodedCursor {
  const parts = partsOf(cursor)
  if (!parts) return { problem: "is not a cursor of this service: take it from a page's Link" }
  if (parts.order !== sortParameter(sort)) {
    return { problem: 'was made for another sort: start again without a cursor' }
  }
  return { position: parts.position }
}

/** What a well-formed cursor holds: a position, and the order it was made for. */
function partsOf(cursor: string): { order?: string; position: PagePosition } | undefined {
  if (cursor.length > maxCursorLength || !base64url.test(cursor)) return undefined
  const bytes = Buffer.from(cursor, 'base64url')
  // Node decodes leniently (trailing bits, stray characters): only its own encoding is a cursor.
  if (bytes.toString('base64url') !== cursor) return undefined
  let parts: unknown
  try {
    parts = JSON.parse(utf8.decode(bytes))
  } catch {
    return undefined
  }
  if (!Array.isArray(parts) || !parts.every((part) => typeof part === 'string')) return undefined
  const strings: string[] = parts
  const [order, value, _id] = strings.length === 1 ? [undefined, undefined, strings[0]] : strings
  if ((strings.length !== 1 && strings.length !== 3) || !objectId.test(_id ?? '')) return undefined
  const position = value === undefined ? { _id: _id as string } : { _id: _id as string, value }
  return order === undefined ? { position } : { order, position }
}
