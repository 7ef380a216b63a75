import { closeSync, openSync, writeSync } from 'node:fs'
import type Datastore from '@seald-io/nedb'

type PersistenceWithAppend = {
  persistNewStateAsync(documents: Record<string, unknown>[]): Promise<void>
}

/**
 * Makes NeDB append each write to its datafile with one synchronous `write(2)` on a descriptor
 * kept open, in NeDB's own line format, instead of `fs.appendFile` (open, write and close, each a
 * trip through the thread pool). NeDB runs writes one at a time, so those trips left the process
 * idle while writes queued; a `write(2)` of one line into the page cache takes microseconds and is
 * just as durable: once it returns, the line survives the process being killed.
 *
 * Documents here are plain JSON (request bodies, string `_id`s), for which `JSON.stringify`
 * writes exactly the line NeDB's serialiser would. A compaction replaces the file, so the
 * descriptor is reopened after each one.
 * @returns a function that closes the descriptor; call it before NeDB's final compaction.
 */
export function appendSynchronously(db: Datastore, filename: string): () => void {
  let descriptor = openSync(filename, 'a')
  const reopen = () => {
    closeSync(descriptor)
    descriptor = openSync(filename, 'a')
  }
  db.on('compaction.done', reopen)
  const persistence = (db as unknown as { persistence: PersistenceWithAppend }).persistence
  persistence.persistNewStateAsync = async (documents) => {
    let lines = ''
    for (const document of documents) lines += `${JSON.stringify(document)}\n`
    if (lines) writeSync(descriptor, lines)
  }
  return () => {
    db.off('compaction.done', reopen)
    closeSync(descriptor)
  }
}
