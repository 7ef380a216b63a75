import { withinDeadline } from '@movies-and-mail/mongo-kit'
import { type Db, type IndexDescription, MongoServerError } from 'mongodb'

/** The server's code for an index that exists under the name with other options. */
const indexOptionsConflict = 85

/**
 * Creates `indexes` on a collection of `db` unless they exist, within `timeoutMs`. A TTL index
 * that exists with another `expireAfterSeconds` (MAILLOG_RETENTION_DAYS changed since) is
 * changed in place with `collMod`, as the server refuses to create it again.
 */
export function ensureIndexes(
  db: Db,
  collectionName: string,
  indexes: IndexDescription[],
  timeoutMs: number,
): Promise<void> {
  const collection = db.collection(collectionName)
  return withinDeadline(timeoutMs, async () => {
    try {
      await collection.createIndexes(indexes)
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === indexOptionsConflict)) throw error
      for (const { name, expireAfterSeconds } of indexes) {
        if (expireAfterSeconds === undefined) continue
        await db.command({ collMod: collectionName, index: { name, expireAfterSeconds } })
      }
      await collection.createIndexes(indexes)
    }
  })
}
