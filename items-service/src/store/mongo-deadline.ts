import {
  MongoNetworkError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb'
import { DuplicateIdError, StoreUnavailableError } from './item-store.js'

const duplicateKeyCode = 11000

/** The id a write is about (for DuplicateIdError), and the abort shared by a cursor's batches. */
export type DeadlineOptions = { id?: string; abort?: AbortController }

/**
 * Settles as `operation` does, or rejects with StoreUnavailableError after `ms`, aborting its
 * signal first: where the driver listens, it then stops waiting for a server or a connection
 * and closes the connection that waits for the answer, which will not come.
 */
export async function withinDeadline<T>(
  ms: number,
  operation: (signal: AbortSignal) => Promise<T>,
  { id, abort = new AbortController() }: DeadlineOptions = {},
): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StoreUnavailableError({ cause: new Error(`no answer within ${ms} ms`) })
      abort.abort(error)
      reject(error)
    }, ms)
  })
  try {
    return await Promise.race([operation(abort.signal), expired])
  } catch (error) {
    throw storeError(error, id)
  } finally {
    clearTimeout(timer)
  }
}

/** The driver's errors as the port's: a duplicate key, or a database that did not answer. */
function storeError(error: unknown, id?: string): unknown {
  if (id !== undefined && error instanceof MongoServerError && error.code === duplicateKeyCode) {
    return new DuplicateIdError(id)
  }
  if (
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNetworkError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoTopologyClosedError
  ) {
    return new StoreUnavailableError({ cause: error })
  }
  return error
}
