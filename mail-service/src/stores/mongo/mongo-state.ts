import { boundedClient, withinDeadline } from '@movies-and-mail/mongo-kit'
import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import type { Db, MongoClient } from 'mongodb'
import type { MailLog } from '../../ports/mail-log.js'
import type { StateStores } from '../../ports/state-stores.js'
import { MongoIdempotencyStore } from './mongo-idempotency-store.js'
import { MongoMailEvents } from './mongo-mail-events.js'
import { MongoMailLog } from './mongo-mail-log.js'
import { MongoSendCounter } from './mongo-send-counter.js'

export type MongoStateOptions = {
  /** MAIL_CONNECTION_URL; it may hold a password. */
  url: string
  /** MAIL_DB_NAME. */
  dbName: string
  /** How long to wait for the database: to connect at start, and on each operation. */
  timeoutMs: number
  /** MAILLOG_RETENTION_DAYS: the TTL of the logs' records. */
  retentionDays: number
}

/**
 * The service's state in one MongoDB database (MAIL_CONNECTION_URL, MAIL_DB_NAME), over one
 * client: collections `maillog` and `outbox` for the logs, `idempotency_keys` and `send_counts`,
 * `mail_events` and `webhook_tokens`.
 * Each store creates its indexes as it is opened, at start. Every process of a fleet may use
 * the same database: each rule is kept by the database (see each store), not by a process.
 * @example
 * const mongo = await MongoState.connect({ url, dbName: 'data', timeoutMs: 10_000, retentionDays: 90 })
 * const idempotency = await mongo.idempotency()
 * await mongo.close()
 */
export class MongoState implements StateStores {
  readonly #client: MongoClient
  readonly #db: Db
  readonly #options: MongoStateOptions

  private constructor(client: MongoClient, options: MongoStateOptions) {
    this.#client = client
    this.#db = client.db(options.dbName)
    this.#options = options
  }

  /**
   * Connects and asks the server to answer, within `timeoutMs`.
   * @throws StoreUnavailableError when the server is not found or does not answer in time
   */
  static async connect(options: MongoStateOptions): Promise<MongoState> {
    const { url, timeoutMs } = options
    // A field left undefined is left out, as JSON.stringify does in the other stores.
    const client = boundedClient(url, { timeoutMs, appName: 'mail-service', ignoreUndefined: true })
    try {
      await withinDeadline(timeoutMs, async (signal) => {
        await client.connect()
        await client.db('admin').command({ ping: 1 }, { signal })
      })
      return new MongoState(client, options)
    } catch (error) {
      await client.close().catch(() => {})
      // What the driver said (refused, not found, no answer in time) is what a start line needs.
      const cause = error instanceof StoreUnavailableError ? error.cause : undefined
      if (!(cause instanceof Error)) throw error
      throw new StoreUnavailableError(`database unavailable: ${cause.message}`, { cause: error })
    }
  }

  open<T extends object>(name: 'maillog' | 'outbox'): Promise<MailLog<T>> {
    const { timeoutMs, retentionDays } = this.#options
    return MongoMailLog.open<T>(this.#db, { name, timeoutMs, retentionDays })
  }

  idempotency(): Promise<MongoIdempotencyStore> {
    return MongoIdempotencyStore.open(this.#db, { timeoutMs: this.#options.timeoutMs })
  }

  events(): Promise<MongoMailEvents> {
    const { timeoutMs, retentionDays } = this.#options
    return MongoMailEvents.open(this.#db, { timeoutMs, retentionDays })
  }

  sendCounter(): Promise<MongoSendCounter> {
    return MongoSendCounter.open(this.#db, { timeoutMs: this.#options.timeoutMs })
  }

  /** Ends the client; operations still waiting for an answer fail. */
  async close(): Promise<void> {
    await this.#client.close()
  }
}
