import type { ItemPage, ItemQuery, PagePosition, TaggedJson } from './item-store.js'

type Sort = NonNullable<ItemQuery['sort']>
/** A parsed item: its fields, and its JSON once a page has answered it. */
type Entry = { _id: string; fields: Record<string, unknown>; json?: string }
/** A list as parsed for its tag, and the orders the sorts asked for so far. */
type ParsedList = { tag: string; entries: Entry[]; orders: Map<string, Entry[]> }

const utf8 = new TextDecoder()

/**
 * Runs queries over a store's list held in memory as JSON. The list is parsed once per list
 * tag and each order sorted once per tag, when first asked for, and kept until the list changes:
 * a poller's repeated queries cost a scan of the parsed items, not a parse.
 */
export class QueryInMemory {
  #parsed: ParsedList | undefined

  run(list: TaggedJson, query: ItemQuery): ItemPage {
    const ordered = this.#ordered(list, query.sort)
    let index = query.after ? firstAfter(ordered, query.after, query.sort) : 0
    const page: Entry[] = []
    for (; index < ordered.length; index += 1) {
      const entry = ordered[index] as Entry
      if (!query.filters.every(([field, value]) => matches(entry.fields, field, value))) continue
      if (page.length === query.limit) break
      page.push(entry)
    }
    const body = Buffer.from(`[${page.map(jsonOf).join(',')}]`)
    const last = page.at(-1)
    // Stopped before the end: a match follows the page's last item.
    if (index === ordered.length || !last) return { body }
    return { body, next: positionOf(last, query.sort) }
  }

  /** The list's items in the order `sort` names, from the parsed form of the list's tag. */
  #ordered(list: TaggedJson, sort: Sort | undefined): Entry[] {
    if (this.#parsed?.tag !== list.etag) this.#parsed = parsed(list)
    const { entries, orders } = this.#parsed
    if (!sort) return entries
    const key = `${sort.descending ? '-' : ''}${sort.field}`
    let order = orders.get(key)
    if (!order) {
      const keyed = entries.map((entry) => ({ entry, position: positionOf(entry, sort) }))
      keyed.sort((a, b) => comparePositions(a.position, b.position, sort))
      order = keyed.map(({ entry }) => entry)
      orders.set(key, order)
    }
    return order
  }
}

function parsed({ body, etag }: TaggedJson): ParsedList {
  const items = JSON.parse(utf8.decode(body)) as Record<string, unknown>[]
  const entries = items.map((fields) => ({ _id: String(fields._id), fields }))
  return { tag: etag, entries, orders: new Map() }
}

/** Whether the item's own `field` is `value`, or a number, boolean or null whose JSON it is. */
function matches(fields: Record<string, unknown>, field: string, value: string): boolean {
  if (!Object.hasOwn(fields, field)) return false
  const held = fields[field]
  if (typeof held === 'string') return held === value
  if (held === null) return value === 'null'
  if (typeof held === 'number' || typeof held === 'boolean') return String(held) === value
  return false
}

function jsonOf(entry: Entry): string {
  entry.json ??= JSON.stringify(entry.fields)
  return entry.json
}

function positionOf(entry: Entry, sort: Sort | undefined): PagePosition {
  if (!sort) return { _id: entry._id }
  const value = entry.fields[sort.field]
  return { _id: entry._id, value: typeof value === 'string' ? value : '' }
}

/** Orders positions as the query does: by value (if sorted), then by `_id` ascending. */
function comparePositions(a: PagePosition, b: PagePosition, sort: Sort | undefined): number {
  if (sort) {
    const byValue = compareCodePoints(a.value ?? '', b.value ?? '')
    if (byValue !== 0) return sort.descending ? -byValue : byValue
  }
  return a._id < b._id ? -1 : a._id > b._id ? 1 : 0
}

/** The index of the first item after `after` in `ordered` (binary search). */
function firstAfter(ordered: Entry[], after: PagePosition, sort: Sort | undefined): number {
  let [low, high] = [0, ordered.length]
  while (low < high) {
    const middle = (low + high) >>> 1
    const here = positionOf(ordered[middle] as Entry, sort)
    if (comparePositions(here, after, sort) <= 0) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * Compares strings by code point, which is UTF-8 byte order (MongoDB's without a collation).
 * JS `<` compares UTF-16 units, which puts characters above U+FFFF (surrogate pairs) before
 * U+E000..U+FFFF; only where both differing units are that high does the order need fixing.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let index = 0; index < length; index += 1) {
    const [x, y] = [a.charCodeAt(index), b.charCodeAt(index)]
    if (x === y) continue
    if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) - codePointRank(y)
    return x - y
  }
  return a.length - b.length
}

/** Surrogates (U+D800..U+DFFF) moved above U+E000..U+FFFF, keeping order within each range. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000
}
