import { resolve } from 'mingo/util'
import type { Catalog } from './catalog.js'

/**
 * MongoDB's TTL monitor: every `periodMs` (60 s in MongoDB) it removes the documents whose
 * date in a TTL index's field lies `expireAfterSeconds` or more in the past (the earliest date,
 * when the field holds an array; none, when it holds no date). Each removal is a delete, as
 * change streams see it.
 */
export class TtlMonitor {
  readonly #catalog: Catalog
  readonly #timer: NodeJS.Timeout

  constructor(catalog: Catalog, periodMs: number) {
    this.#catalog = catalog
    this.#timer = setInterval(() => this.pass(), periodMs)
    this.#timer.unref()
  }

  /** One pass over every collection now; answers how many documents it removed. */
  pass(now = Date.now()): number {
    let removed = 0
    for (const collection of this.#catalog.all()) {
      for (const { field, seconds } of collection.indexes.ttl()) {
        const expired = collection.documents.filter((document) => {
          const dates = [resolve(document, field)].flat().filter((value) => value instanceof Date)
          const earliest = Math.min(...dates.map((date: Date) => date.getTime()))
          return earliest + seconds * 1000 <= now
        })
        for (const document of expired) collection.remove(document)
        removed += expired.length
      }
    }
    return removed
  }

  stop(): void {
    clearInterval(this.#timer)
  }
}
