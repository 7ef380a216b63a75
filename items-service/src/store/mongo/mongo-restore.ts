import { duplicateKeyCode, withinDeadline } from '@movies-and-mail/mongo-kit'
import { type Collection, MongoBulkWriteError, ObjectId } from 'mongodb'
import type { Item, Restored } from '../item-store.js'

/** How many items a restore writes at once. */
const restoreBatch = 1000

/**
 * Items as an export wrote them, `_id`s kept, in batches of a thousand, each under the deadline.
 * Without `replace`, one unordered insert a batch, whose duplicate keys are the items the
 * collection has (skipped); with it, each item takes the place of the one with its id. A failure
 * part way leaves the batches before it stored: a run again skips them.
 */
export async function restoreItems(
  collection: Collection,
  items: readonly Item[],
  { replace, timeoutMs }: { replace: boolean; timeoutMs: number },
): Promise<Restored> {
  const restored: Restored = { added: 0, replaced: 0, skipped: 0 }
  for (let start = 0; start < items.length; start += restoreBatch) {
    const documents = items
      .slice(start, start + restoreBatch)
      .map(({ _id, ...fields }) => ({ _id: ObjectId.createFromHexString(_id), ...fields }))
    if (replace) {
      const operations = documents.flatMap((document) => [
        { deleteOne: { filter: { id: document.id } } },
        { insertOne: { document } },
      ])
      const result = await withinDeadline(timeoutMs, () => collection.bulkWrite(operations))
      restored.replaced += result.deletedCount
      restored.added += result.insertedCount - result.deletedCount
      continue
    }
    try {
      const result = await withinDeadline(timeoutMs, () =>
        collection.insertMany(documents, { ordered: false }),
      )
      restored.added += result.insertedCount
    } catch (error) {
      const failed = error instanceof MongoBulkWriteError ? error.writeErrors : undefined
      const errors = Array.isArray(failed) ? failed : failed ? [failed] : []
      if (errors.length === 0 || !errors.every((each) => each.code === duplicateKeyCode))
        throw error
      restored.added += (error as MongoBulkWriteError).insertedCount
      restored.skipped += errors.length
    }
  }
  return restored
}
