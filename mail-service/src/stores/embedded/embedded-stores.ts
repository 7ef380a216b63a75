import { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import { EmbeddedIdempotencyStore } from './embedded-idempotency-store.js'
import { EmbeddedMailEvents } from './embedded-mail-events.js'
import { EmbeddedMailLog } from './embedded-mail-log.js'
import { EmbeddedSendCounter } from './embedded-send-counter.js'
import { importNedbLogOnce } from './nedb-import.js'

/** The logs the service keeps; each was a NeDB file `<name>.db` in earlier releases. */
const logNames = ['maillog', 'outbox'] as const

/**
 * The Node entry's stores when no Deta Base is set: the mail log, the outbox, the idempotency
 * keys and the send counts, all in one embedded store for the service
 * (`<dataDir>/mail-service.mdb`). It is opened when the first of them is asked for, so a service
 * whose stores live elsewhere never takes DATA_DIR, and opening it imports the earlier release's
 * log files once. Rejects with DataDirInUseError when another process holds DATA_DIR, and with
 * StoreDamagedError when a file there cannot be read as it is.
 * @example
 * const stores = new EmbeddedStores('.data')
 * const mailLog = await stores.open<MailLogEntry>('maillog')
 * await stores.close()
 */
export class EmbeddedStores {
  readonly #dataDir: string
  readonly #say: (line: string) => void
  #env: Promise<EmbeddedEnv> | undefined
  readonly #logs: EmbeddedMailLog<object>[] = []
  readonly #counters: EmbeddedSendCounter[] = []

  /** @param say where the lines about an import go */
  constructor(dataDir: string, { say = console.log }: { say?: (line: string) => void } = {}) {
    this.#dataDir = dataDir
    this.#say = say
  }

  async open<T extends object>(name: (typeof logNames)[number]): Promise<EmbeddedMailLog<T>> {
    const log = new EmbeddedMailLog<T>(await this.#store(), name)
    this.#logs.push(log)
    return log
  }

  async idempotency(): Promise<EmbeddedIdempotencyStore> {
    return new EmbeddedIdempotencyStore(await this.#store())
  }

  async events(): Promise<EmbeddedMailEvents> {
    return new EmbeddedMailEvents(await this.#store())
  }

  async sendCounter(): Promise<EmbeddedSendCounter> {
    const counter = new EmbeddedSendCounter(await this.#store())
    this.#counters.push(counter)
    return counter
  }

  #store(): Promise<EmbeddedEnv> {
    // A failed open is not remembered: the next call tries again.
    this.#env ??= this.#openEnv().catch((error: unknown) => {
      this.#env = undefined
      throw error
    })
    return this.#env
  }

  /** Closes the logs, then the store; nothing when no store was opened. */
  async close(): Promise<void> {
    const opening = this.#env
    this.#env = undefined
    const env = await opening?.catch(() => undefined)
    if (!env) return
    await Promise.allSettled(this.#logs.splice(0).map((log) => log.close()))
    // Counts are written behind the sends: the last of them before the store closes.
    await Promise.allSettled(this.#counters.splice(0).map((counter) => counter.flushed()))
    await env.close()
  }

  async #openEnv(): Promise<EmbeddedEnv> {
    // A send's message (or log record) is written while its count is written behind it.
    const env = await EmbeddedEnv.open(this.#dataDir, 'mail-service', { writesAtOnce: 2 })
    try {
      for (const name of logNames) {
        for (const line of await importNedbLogOnce(env, name)) this.#say(line)
      }
      return env
    } catch (error) {
      await env.close()
      throw error
    }
  }
}
