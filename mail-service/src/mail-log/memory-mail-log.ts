import { type MailLog, recordIds, type Stored } from './mail-log.js'

/**
 * Keeps records in memory only. The Worker uses it when no Deta Base is configured: records
 * last as long as the isolate does.
 */
export class MemoryMailLog<T extends object> implements MailLog<T> {
  #records: Stored<T>[] = []

  async insert(record: T): Promise<Stored<T>> {
    const stored = { ...structuredClone(record), _id: recordIds.next() }
    this.#records.push(stored)
    return structuredClone(stored)
  }

  async list({ limit }: { limit: number }): Promise<Stored<T>[]> {
    return structuredClone(this.#records.slice(-limit).reverse())
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
