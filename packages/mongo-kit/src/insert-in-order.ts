import type { SortableIdSequence } from '@movies-and-mail/store-kit'
import { type Collection, type Document, ObjectId } from 'mongodb'
import { isDuplicateKey } from './mongo-errors.js'

/** Two processes may take the same `_id` after one newest: the later tries again, this often. */
const attempts = 5

/**
 * Inserts the document `make` builds around a new `_id`, one that sorts after every `_id` the
 * collection holds when it is made, whichever process made them and whatever its clock says:
 * the newest `_id` is read (the last entry of the `_id` index) and the id made after it
 * (`SortableIdSequence`). So records listed by `_id` are in the order they were created, across
 * processes and clock skew, and a page read by `_id` never misses a record created after it was
 * read. Two processes that read the same newest and make the same id: the server refuses the
 * second (E11000 on `_id`), which reads again and takes the next. No lock: one indexed read more
 * per insert. Concurrent inserts take either order, as they may.
 * @returns the `_id` inserted
 * @throws what the insert throws, a duplicate of another unique index included
 */
export async function insertInOrder(
  collection: Collection<Document>,
  ids: SortableIdSequence,
  make: (_id: ObjectId) => Document,
): Promise<ObjectId> {
  for (let attempt = 1; ; attempt += 1) {
    const newest = await collection.findOne({}, { sort: { _id: -1 }, projection: { _id: 1 } })
    if (newest) ids.observe(String(newest._id))
    const _id = new ObjectId(ids.next())
    try {
      await collection.insertOne(make(_id))
      return _id
    } catch (error) {
      if (attempt === attempts || !isDuplicateKey(error, '_id')) throw error
    }
  }
}
