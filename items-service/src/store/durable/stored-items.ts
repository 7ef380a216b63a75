import type { JoinedItems } from '../json-list-cache.js'

const [open, comma, close] = [Buffer.from('['), Buffer.from(','), Buffer.from(']')]

/**
 * How many items a batch joins at most. SQLite in a Durable Object refuses a value past 2 MB
 * (`SQLITE_TOOBIG`): a batch that would be larger is read again as half as many.
 */
const batchItems = 2000

/** The next batch of items after a key: their JSON joined by commas, and `[key, id, bytes]`s. */
const nextBatch = (sorted: boolean) => `
  SELECT CAST(group_concat(json, ','${sorted ? ' ORDER BY key' : ''}) AS BLOB) AS json,
         json_group_array(json_array(key, id, octet_length(json))${sorted ? ' ORDER BY key' : ''})
           AS entries
  FROM (SELECT key, id, json FROM items WHERE key > ? ORDER BY key LIMIT ?)`

/**
 * The batches' queries: as SQLite reads the subquery's rows, which is in its order, or sorted
 * again by each aggregate, as SQLite's documentation promises (a quarter slower at 20,000 items).
 */
export const batchQueries = { asRead: nextBatch(false), sorted: nextBatch(true) }

/** One batch as the query answers it: no JSON when no item is left. */
export type Batch = { json: ArrayBuffer | null; entries: string }

/** Runs a batch's query with its bindings: `sql.exec(query, after, size).one()`. */
export type RunBatch = (query: string, after: string, size: number) => Batch

type StoredItems = { items: JoinedItems; ids: [string, string][] }

/**
 * The items of the `items` table (key, id, json) as one JSON array and each item's length in it,
 * and each id's key, read in batches joined by SQLite. Reading the rows one at a time made each
 * item cross into JavaScript on its own: at 20,000 items, most of an object's start.
 */
export function readStoredItems(run: RunBatch): StoredItems {
  const read = readInBatches(run, batchQueries.asRead) ?? readInBatches(run, batchQueries.sorted)
  if (!read) throw new Error('the stored items did not come in key order')
  return read
}

/** The items by `query`, or null when their keys did not come in order. */
function readInBatches(run: RunBatch, query: string): StoredItems | null {
  const chunks: Uint8Array[] = [open]
  const lengths: [string, number][] = []
  const ids: [string, string][] = []
  let after = ''
  let size = batchItems
  for (;;) {
    let batch: Batch
    try {
      batch = run(query, after, size)
    } catch (error) {
      if (size > 1 && /SQLITE_TOOBIG/.test(String(error))) {
        size = Math.ceil(size / 2)
        continue
      }
      throw error
    }
    if (batch.json === null) break
    if (chunks.length > 1) chunks.push(comma)
    chunks.push(new Uint8Array(batch.json))
    const entries = JSON.parse(batch.entries) as [string, string, number][]
    for (const [key, id, bytes] of entries) {
      if (key <= after) return null
      lengths.push([key, bytes])
      ids.push([id, key])
      after = key
    }
    // A size that was too large stays halved: the items after are likely as large.
    if (entries.length < size) break
  }
  chunks.push(close)
  return { items: { list: Buffer.concat(chunks), lengths }, ids }
}
