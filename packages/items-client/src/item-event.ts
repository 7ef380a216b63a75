import type { Item, NoFields } from './api-types.js'
import type { ParsedBlock } from './event-stream-parser.js'

/**
 * A change to the items: the item as created, as updated, or as it was when deleted. `id` is
 * the event's id: a subscription given it as `lastEventId` gets the events after this one.
 */
export type ItemChange<Fields extends object = NoFields> = {
  type: 'created' | 'updated' | 'deleted'
  id: string
  item: Item<Fields>
}

/**
 * The events since the `lastEventId` a subscription resumed from are no longer kept (too
 * many, or the service restarted): read the list again, then carry on with the events after.
 */
export type ItemsReload = { type: 'reload'; id: string; reason?: string | undefined }

/** What `subscribe` reports: a change, or that changes were missed. */
export type ItemEvent<Fields extends object = NoFields> = ItemChange<Fields> | ItemsReload

/** A block of the stream that breaks the API's format: the connection is not to be trusted. */
export class EventFormatError extends Error {
  override readonly name = 'EventFormatError'
}

/**
 * The `ItemEvent` a block of `GET /items/events` carries; undefined for a block that is none
 * (no data, or an event type this client does not know, which a later service may send).
 * @throws EventFormatError when a change's data is not an item as JSON
 */
export function itemEventOf<Fields extends object = NoFields>({
  id,
  type,
  data,
}: ParsedBlock): ItemEvent<Fields> | undefined {
  if (data === null) return undefined
  if (type === 'reload') {
    const { reason } = (parsed(data) ?? {}) as { reason?: unknown }
    return typeof reason === 'string' ? { type, id, reason } : { type, id }
  }
  if (type !== 'created' && type !== 'updated' && type !== 'deleted') return undefined
  const item = parsed(data)
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new EventFormatError(
      `event ${id} (${type}) does not carry an item: ${data.slice(0, 100)}`,
    )
  }
  return { type, id, item: item as Item<Fields> }
}

function parsed(data: string): unknown {
  try {
    return JSON.parse(data)
  } catch {
    return undefined
  }
}
