import { StoreUnavailableError, withDeadline } from '@movies-and-mail/store-kit'
import {
  MongoNetworkError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb'

/** The server's code for a write a unique index refused. */
export const duplicateKeyCode = 11000
const unavailable = 'database unavailable'

/**
 * Whether a write failed on a unique index: another document has that key. With `field`, only
 * on the index of that field, as the server names it in `keyPattern` (or, from servers before
 * 4.4, in the message: `index: <field>_…`).
 */
export function isDuplicateKey(error: unknown, field?: string): boolean {
  if (!(error instanceof MongoServerError && error.code === duplicateKeyCode)) return false
  if (field === undefined) return true
  const pattern: unknown = error.keyPattern
  if (pattern && typeof pattern === 'object') return Object.hasOwn(pattern, field)
  return error.message.includes(`index: ${field}_`)
}

/**
 * Settles as `operation` does, or rejects with StoreUnavailableError after `ms`, aborting its
 * signal first: where the driver listens, it then stops waiting for a server or a connection
 * and closes the connection that waits for the answer, which will not come. The driver's errors
 * that say the database did not answer become StoreUnavailableError too; others pass as they are.
 */
export async function withinDeadline<T>(
  ms: number,
  operation: (signal: AbortSignal) => Promise<T>,
  abort?: AbortController,
): Promise<T> {
  try {
    return await withDeadline(ms, operation, {
      ...(abort && { abort }),
      expired: (limit) =>
        new StoreUnavailableError(unavailable, {
          cause: new Error(`no answer within ${limit} ms`),
        }),
    })
  } catch (error) {
    if (
      error instanceof MongoServerSelectionError ||
      error instanceof MongoNetworkError ||
      error instanceof MongoOperationTimeoutError ||
      error instanceof MongoTopologyClosedError
    ) {
      throw new StoreUnavailableError(unavailable, { cause: error })
    }
    throw error
  }
}
