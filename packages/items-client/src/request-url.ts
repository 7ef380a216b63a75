import { InvalidRequestError } from './invalid-request-error.js'

// A lone surrogate, which `encodeURIComponent` throws a URIError on: in `u` mode a paired one
// is one astral code point, so only an unpaired half is of the surrogate category.
const loneSurrogate = /\p{Cs}/u

/** True when `text` holds no lone surrogate, so that it has a UTF-8 encoding. */
export function isWellFormed(text: string): boolean {
  return !loneSurrogate.test(text)
}

/** How a refused value shows in a message: quoted, a lone surrogate escaped (`"\ud800"`). */
const shown = (text: string) => JSON.stringify(text)

/**
 * The path of the item `id`, URL-encoded (`/items/a%2Fb`). For a read, `events` is refused
 * too: `GET /items/events` is the change feed, not that item.
 * @throws InvalidRequestError for an id no URL can carry
 */
export function itemPath(id: string, { reading = false } = {}): string {
  const problem = idProblem(id, reading)
  if (problem) throw new InvalidRequestError(`cannot send the item id ${shown(id)}: ${problem}`)
  return `/items/${encodeURIComponent(id)}`
}

function idProblem(id: string, reading: boolean): string | undefined {
  if (id === '') return 'an id must not be empty'
  if (id === '.' || id === '..') return 'a URL path cannot hold . or .. (it resolves them away)'
  if (!isWellFormed(id)) return 'it is not well-formed Unicode (it holds a lone surrogate)'
  if (reading && id === 'events') {
    return "GET /items/events is the change feed; find that item with list({ id: 'events' })"
  }
  return undefined
}

/**
 * A query string of `GET /items` (`?genre=Drama&sort=-name`), keys in the order given, values
 * left out when `undefined`; `''` when nothing is left.
 * @throws InvalidRequestError for a name or value that is not well-formed Unicode
 */
export function queryString(query: object): string {
  const pairs: string[] = []
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue
    const text = String(value)
    for (const part of [name, text]) {
      if (!isWellFormed(part)) {
        throw new InvalidRequestError(
          `cannot send the query parameter ${shown(name)}=${shown(text)}: it is not well-formed Unicode (it holds a lone surrogate)`,
        )
      }
    }
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`)
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`
}

/**
 * Which kept answers a change to the items `ids` makes stale: every list and query (any of
 * them may hold the item, or now should), and the answers of those items themselves.
 */
export function changedPaths(ids: readonly unknown[]): (path: string) => boolean {
  const itemPaths = new Set<string>()
  for (const id of ids) {
    if (typeof id === 'string' && isWellFormed(id)) {
      itemPaths.add(`/items/${encodeURIComponent(id)}`)
    }
  }
  return (path) => path === '/items' || path.startsWith('/items?') || itemPaths.has(path)
}
