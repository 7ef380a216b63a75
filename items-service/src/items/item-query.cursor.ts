import type { ItemQuery, PagePosition } from '../store/item-store.js'

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
