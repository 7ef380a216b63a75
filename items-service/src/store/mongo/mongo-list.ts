import { withinDeadline } from '@movies-and-mail/mongo-kit'
import type { Collection } from 'mongodb'

/**
 * The collection as the JSON text of the list, in insertion (`_id`) order, one chunk for each
 * batch the cursor reads. One signal for the cursor, and a deadline for each batch: a long list
 * is not cut off for its length, while a database that stops answering fails the read with
 * StoreUnavailableError within `timeoutMs`.
 */
export async function* listChunks(items: Collection, timeoutMs: number): AsyncGenerator<Buffer> {
  const abort = new AbortController()
  const cursor = items.find({}, { sort: { _id: 1 }, signal: abort.signal })
  const nextBatch = () =>
    withinDeadline(
      timeoutMs,
      async () => ((await cursor.hasNext()) ? cursor.readBufferedDocuments() : []),
      abort,
    )
  try {
    let separator = '['
    for (let batch = await nextBatch(); batch.length > 0; batch = await nextBatch()) {
      yield Buffer.from(separator + batch.map((document) => JSON.stringify(document)).join(','))
      separator = ','
    }
    yield Buffer.from(separator === '[' ? '[]' : ']')
  } finally {
    // Not awaited: after a deadline the server may not answer the cursor's close either. A
    // cursor read to its end is closed already.
    cursor.close().catch(() => {})
  }
}
