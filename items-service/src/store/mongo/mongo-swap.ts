import type { Collection, Document } from 'mongodb'

/** One top-level field, as `$objectToArray` lists them: in the order the server stores them. */
type StoredField = { k: string; v: unknown }

/** An item as read for a compare-and-swap. */
export type SwapTarget = {
  /** The item's JSON, byte for byte what `find` answers for it: its tag is the tag of these. */
  json: Buffer
  /** Matches the item only while it is exactly as read: the filter of the conditional write. */
  unchanged: Document
  /** Finds the item whatever it holds now: to tell a changed item from a removed one. */
  same: Document
  /** Its `_owner` as read; `unchanged` holds it too, so a write under it is the owner's. */
  owner: unknown
}

/**
 * Reads the item whose `id` is `id` for a write that must not overwrite a change made since by
 * anyone (this or another instance): the write's filter then holds the whole item as read.
 *
 * MongoDB compares documents field by field in stored order, while a JavaScript object lists
 * integer-like keys first, so an item read into an object and sent back would not equal itself
 * (a field named `1994`, or one a later `$set` appended). The top level is therefore read and
 * compared as its list of fields in stored order. Nested values need no such care: the service
 * always writes them whole, from objects, so they are stored in the order an object gives back.
 * `$literal` keeps a value such as `"$5 a day"` from being read as a field path.
 */
export async function readSwapTarget(
  items: Collection,
  id: string,
  signal: AbortSignal,
): Promise<SwapTarget | null> {
  const read = await items.findOne(
    { id },
    { projection: { _id: 0, fields: { $objectToArray: '$$ROOT' } }, signal },
  )
  if (!read) return null
  const fields = read.fields as StoredField[]
  // Assigned in stored order, as the driver builds a document it reads: the same JSON as `find`.
  const item = Object.fromEntries(fields.map(({ k, v }) => [k, v]))
  return {
    json: Buffer.from(JSON.stringify(item)),
    unchanged: {
      _id: item._id,
      $expr: { $eq: [{ $objectToArray: '$$ROOT' }, { $literal: fields }] },
    },
    same: { _id: item._id },
    owner: item._owner,
  }
}
