import type { KeptAnswer } from './answer-cache.js'
import type { ItemChange } from './item-event.js'

/** The path of the whole list, with no query: what every write answers, with the list's tag. */
export const listPath = '/items'

/** Whether two JSON values are the same, whatever the order of their objects' fields. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const aKeys = Object.keys(a)
  if (aKeys.length !== Object.keys(b).length) return false
  const bRecord = b as Record<string, unknown>
  return aKeys.every(
    (key) =>
      Object.hasOwn(bRecord, key) && sameJson((a as Record<string, unknown>)[key], bRecord[key]),
  )
}

/**
 * Whether the kept answer of the whole list already shows `change`: the item as the event
 * carries it, or, for a deletion, no item of its `_id`. The event of the client's own write,
 * whose answer is kept, then leaves that answer kept, and the next read of the list is a 304;
 * any other change makes it stale. Either way the service's tag decides in the end.
 */
export function listShows(kept: KeptAnswer, change: ItemChange<object>): boolean {
  const list = JSON.parse(kept.text) as unknown
  if (!Array.isArray(list)) return false
  const { _id: changed } = change.item
  if (change.type === 'deleted') {
    return !list.some((each: { _id?: unknown } | null) => each?._id === changed)
  }
  return list.some((each: unknown) => sameJson(each, change.item))
}
