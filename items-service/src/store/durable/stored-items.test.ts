import { describe, expect, it } from 'vitest'
import { type Batch, batchQueries, type RunBatch, readStoredItems } from './stored-items.js'

type Row = { key: string; id: string; json: string }

const rows: Row[] = Array.from({ length: 4500 }, (_, n) => {
  const key = n.toString(16).padStart(24, '0')
  return {
    key,
    id: `tt${n}`,
    json: JSON.stringify({ _id: key, id: `tt${n}`, name: `Amélie ${n}` }),
  }
})

/** A batch as SQLite answers it: the items after `after`, at most `size`, in `order`. */
function batchOf(chosen: Row[]): Batch {
  return {
    json:
      chosen.length === 0
        ? null
        : new Uint8Array(Buffer.from(chosen.map((row) => row.json).join(','))).buffer,
    entries: JSON.stringify(chosen.map((row) => [row.key, row.id, Buffer.byteLength(row.json)])),
  }
}

/** SQLite over `rows`, taking each batch's rows in order unless `disorder` says otherwise. */
function sqlite({ maxBytes = Number.POSITIVE_INFINITY, disorder = false } = {}) {
  const queries: string[] = []
  const run: RunBatch = (query, after, size) => {
    queries.push(query)
    const chosen = rows.filter((row) => row.key > after).slice(0, size)
    if (chosen.reduce((sum, row) => sum + row.json.length, 0) > maxBytes) {
      throw new Error('string or blob too big: SQLITE_TOOBIG')
    }
    return batchOf(disorder && query === batchQueries.asRead ? [...chosen].reverse() : chosen)
  }
  return { run, queries }
}

describe('readStoredItems', () => {
  it('joins every item into one JSON array, in key order, with each length and id', () => {
    const { run, queries } = sqlite()
    const { items, ids } = readStoredItems(run)
    expect(JSON.parse(Buffer.from(items.list).toString())).toEqual(
      rows.map((row) => JSON.parse(row.json)),
    )
    expect(items.lengths).toEqual(rows.map((row) => [row.key, Buffer.byteLength(row.json)]))
    expect(ids).toEqual(rows.map((row) => [row.id, row.key]))
    expect(queries).toHaveLength(3)
  })

  it('reads [] from an empty table', () => {
    const { items, ids } = readStoredItems(() => batchOf([]))
    expect(Buffer.from(items.list).toString()).toBe('[]')
    expect([items.lengths, ids]).toEqual([[], []])
  })

  it('reads a batch SQLite finds too large again as smaller ones', () => {
    const { run, queries } = sqlite({ maxBytes: 20_000 })
    const { items } = readStoredItems(run)
    expect(JSON.parse(Buffer.from(items.list).toString())).toHaveLength(rows.length)
    expect(items.lengths.map(([key]) => key)).toEqual(rows.map((row) => row.key))
    expect(queries.length).toBeGreaterThan(rows.length / 1000)
  })

  it('reads the items again sorted by each aggregate when they came out of order', () => {
    const { run, queries } = sqlite({ disorder: true })
    const { items } = readStoredItems(run)
    expect(items.lengths.map(([key]) => key)).toEqual(rows.map((row) => row.key))
    expect(JSON.parse(Buffer.from(items.list).toString())[0]).toEqual(
      JSON.parse(rows[0]?.json ?? ''),
    )
    expect(queries.at(-1)).toBe(batchQueries.sorted)
  })

  it('gives up with an error when it cannot find a batch small enough', () => {
    const { run } = sqlite({ maxBytes: 10 })
    expect(() => readStoredItems(run)).toThrow(/SQLITE_TOOBIG/)
  })
})
