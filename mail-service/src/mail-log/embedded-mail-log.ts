import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import Datastore from '@seald-io/nedb'
import { type MailLog, newRecordId, type Stored } from './mail-log.js'

/**
 * The default store: an embedded document database (`@seald-io/nedb`) in one file per log
 * under `dataDir`, kept across restarts.
 * @example const mailLog = await EmbeddedMailLog.open('.data', 'maillog')
 */
export class EmbeddedMailLog<T extends object> implements MailLog<T> {
  #db: Datastore<Stored<T>>
  #closed = false

  private constructor(db: Datastore<Stored<T>>) {
    this.#db = db
  }

  static async open<T extends object>(dataDir: string, name: string): Promise<EmbeddedMailLog<T>> {
    await mkdir(dataDir, { recursive: true })
    const db = new Datastore<Stored<T>>({ filename: join(dataDir, `${name}.db`) })
    await db.loadDatabaseAsync()
    return new EmbeddedMailLog(db)
  }

  async insert(record: T): Promise<Stored<T>> {
    this.#assertOpen()
    const stored = { ...record, _id: newRecordId() } as Stored<T>
    return (await this.#db.insertAsync(stored)) as Stored<T>
  }

  async list({ limit }: { limit: number }): Promise<Stored<T>[]> {
    this.#assertOpen()
    return (await this.#db.findAsync({}).sort({ _id: -1 }).limit(limit)) as Stored<T>[]
  }

  async ping(): Promise<void> {
    this.#assertOpen()
    await this.#db.countAsync({})
  }

  /** Compacts the file (one line per record) and refuses further calls. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#db.compactDatafileAsync()
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the embedded mail log is closed')
  }
}
