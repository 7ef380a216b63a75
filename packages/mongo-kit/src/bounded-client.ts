import { MongoClient } from 'mongodb'

export type BoundedClientOptions = {
  /** How long each step may wait: finding a server, connecting, a place in the pool, an answer. */
  timeoutMs: number
  /** What the server's log calls this client. */
  appName: string
  /**
   * Whether each socket read also times out at `timeoutMs` (true by default). The Workers
   * runtime's `node:net` adds a listener at every such timeout it arms and never removes it, so a
   * client held across requests there gathers them without end: off on Workers, where the
   * deadline of each operation alone bounds the wait.
   */
  socketTimeouts?: boolean
  /** Leave a field that is undefined out of a document, as JSON.stringify does. */
  ignoreUndefined?: boolean
}

/**
 * A client not yet connected, each of whose steps gives up after `timeoutMs`. The driver ignores
 * `timeoutMS` (it warns so) and no setting of its bounds a whole operation: each step has its own
 * budget, and a failed read is tried again. So each operation runs under a deadline of the
 * store's (`withinDeadline`), and each step gets the budget too, so that a connection left
 * waiting for an answer closes by itself instead of holding its place in the pool where the
 * deadline's abort signal does not reach (writes, later batches, killCursors).
 */
export function boundedClient(
  url: string,
  { timeoutMs, appName, socketTimeouts = true, ignoreUndefined = false }: BoundedClientOptions,
): MongoClient {
  return new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    waitQueueTimeoutMS: timeoutMs,
    socketTimeoutMS: socketTimeouts ? timeoutMs : 0,
    appName,
    ignoreUndefined,
  })
}
