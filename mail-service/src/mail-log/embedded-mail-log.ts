import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { Database } from 'lmdb'
import { type MailLog, recordIds, type Stored } from './mail-log.js'

/**
 * A log kept in a named database of the service's embedded store (LMDB, see
 * `@movies-and-mail/embedded-store`): one record a key, the key its `_id`, which sorts by time,
 * so the newest records are read straight from the end of the database and nothing is held in
 * memory per record. An insert resolves once its transaction is committed and synced; one that
 * cannot be stored rejects (NoSpaceError, StorageWriteError) and leaves nothing behind.
 * The store is shared by the service's logs: its owner closes it, after closing the logs.
 * @example const mailLog = new EmbeddedMailLog<MailLogEntry>(env, 'maillog')
 */
export class EmbeddedMailLog<T extends object> implements MailLog<T> {
  readonly #env: EmbeddedEnv
  readonly #records: Database<string, string>
  readonly #inFlight = new Set<Promise<void>>()
  #lastWriteFailed = false
  #closed = false

  constructor(env: EmbeddedEnv, name: string) {
    this.#env = env
    this.#records = env.database<string>(name, 'string')
    const newest = this.#newestKey()
    if (newest !== undefined) recordIds.observe(newest)
  }

  async insert(record: T): Promise<Stored<T>> {
    this.#assertOpen()
    const stored = { ...record, _id: recordIds.next() } as Stored<T>
    const json = JSON.stringify(stored)
    await this.#commit(Buffer.byteLength(json), () => this.#records.put(stored._id, json))
    return stored
  }

  async list({ limit }: { limit: number }): Promise<Stored<T>[]> {
    this.#assertOpen()
    const records: Stored<T>[] = []
    for (const { value } of this.#records.getRange({ reverse: true, limit })) {
      records.push(JSON.parse(value) as Stored<T>)
    }
    return records
  }

  /**
   * Resolves while the store reads and its writes succeed. After a failed write (a full disk,
   * say), it resolves only once a small probe write succeeds: health follows the disk, with no
   * need for a client to send again first.
   */
  async ping(): Promise<void> {
    this.#assertOpen()
    this.#newestKey()
    if (!this.#lastWriteFailed) return
    const probes = this.#env.database<string>('health', 'string')
    const at = new Date().toISOString()
    await this.#commit(at.length, () => probes.put('last-probe', at))
  }

  /** Refuses further calls, and resolves once the writes in flight are done; the store stays open. */
  async close(): Promise<void> {
    this.#closed = true
    await Promise.allSettled(this.#inFlight)
  }

  async #commit(bytes: number, writes: () => void): Promise<void> {
    const done = this.#env.commit(bytes, writes)
    this.#inFlight.add(done)
    try {
      await done
      this.#lastWriteFailed = false
    } catch (error) {
      this.#lastWriteFailed = true
      throw error
    } finally {
      this.#inFlight.delete(done)
    }
  }

  /** The newest record's key: one read, where a count would walk every record. */
  #newestKey(): string | undefined {
    for (const key of this.#records.getKeys({ reverse: true, limit: 1 })) return key
    return undefined
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the embedded mail log is closed')
  }
}
