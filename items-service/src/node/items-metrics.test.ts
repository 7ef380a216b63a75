import { ScrapedMetrics } from '@movies-and-mail/test-kit'
import { getMetricsFromIterator } from 'prom2javascript'
import { describe, expect, it } from 'vitest'
import type { ItemStore } from '../store/item-store.js'
import { itemsMetrics } from './items-metrics.js'

const operations = 'db_client_operation_duration_seconds'

/** The store operations' part of the exposition, as a scraper reads it. */
async function scraped(metrics: ReturnType<typeof itemsMetrics>) {
  const lines = (await metrics.registry.getSingleMetricAsString(operations)).split('\n')
  return new ScrapedMetrics(await getMetricsFromIterator(lines[Symbol.iterator]()))
}

/** A store whose `find` answers from memory, or throws for the id `broken`. */
const store = {
  find: (id: string) => {
    if (id === 'broken') throw new Error('the store failed')
    return id === 'tt1' ? { body: new TextEncoder().encode('{}'), etag: '"a"' } : null
  },
} as Partial<ItemStore> as ItemStore

describe('itemsMetrics', () => {
  it("counts each store operation under its outcome, the store's answer unchanged", async () => {
    const metrics = itemsMetrics({ database: 'lmdb', feed: () => undefined })
    const timed = metrics.timed(store)
    for (let n = 0; n < 7; n++) expect(timed.find('tt1')).toEqual(store.find('tt1'))
    expect(timed.find('missing')).toBeNull()
    for (let n = 0; n < 3; n++) expect(() => timed.find('broken')).toThrow('the store failed')
    const read = await scraped(metrics)
    const finds = { db_system_name: 'lmdb', db_operation_name: 'find' }
    expect(read.value(operations, { ...finds, outcome: 'ok' })).toBe(8)
    expect(read.value(operations, { ...finds, outcome: 'error' })).toBe(3)
    expect(read.samples(operations).map((sample) => sample.labels.outcome)).toEqual(['ok', 'error'])
  })
})
