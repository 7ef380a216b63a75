import { fileURLToPath } from 'node:url'
import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import type { IdempotencyStore } from '../../src/ports/idempotency-store.js'
import type { MailEvent, MailEvents } from '../../src/ports/mail-events.js'
import type { MailLog, MailLogEntry } from '../../src/ports/mail-log.js'
import type { SendCounter } from '../../src/ports/send-counter.js'
import { type BundledWorker, bundledWorker } from './bundled-worker.js'
import type { Call } from './worker-state-harness.worker.js'
import { mailStateObjects } from './worker-under-test.js'

const source = fileURLToPath(new URL('./worker-state-harness.worker.ts', import.meta.url))

/** The error an adapter threw inside the runtime, as the kit's class of the same name. */
function rethrown({ name, message }: { name: string; message: string }): Error {
  if (name === 'StoreUnavailableError') return new StoreUnavailableError(message)
  if (name === 'StoreFullError') return new StoreFullError(message)
  return Object.assign(new Error(message), { name })
}

type Options = Omit<Call, 'port' | 'object' | 'method' | 'args'>

/**
 * The Durable Object adapters where they run, inside workerd: a harness Worker, bundled as the
 * mail Worker is (scripts/build.mjs), holds the mail state object and the adapters, and each
 * proxy here sends every call of a port to it. Each `open…` names an object of its own, so it
 * starts empty; the same name again is the same state, as another isolate sees it.
 */
export class WorkerStateHarness {
  readonly #worker: BundledWorker

  private constructor(worker: BundledWorker) {
    this.#worker = worker
  }

  /** @param persist a folder for the objects' storage: a harness started on it again restarts them */
  static async start({ persist }: { persist?: string } = {}): Promise<WorkerStateHarness> {
    const options = persist === undefined ? {} : { persist }
    return new WorkerStateHarness(await bundledWorker(source, mailStateObjects, options))
  }

  async #call(call: Call): Promise<never> {
    const response = await this.#worker.mf.dispatchFetch('http://harness.test/', {
      method: 'POST',
      body: JSON.stringify(call),
    })
    const answer = (await response.json()) as { value: unknown; thrown?: never }
    if (answer.thrown) throw rethrown(answer.thrown)
    return answer.value as never
  }

  idempotencyStore(object: string): IdempotencyStore {
    const call = (method: string, ...args: unknown[]) =>
      this.#call({ port: 'idempotency', object, method, args })
    return {
      take: (key, record) => call('take', key, record),
      complete: async (key, answer, takenAt) => {
        await call('complete', key, answer, takenAt)
      },
      unanswered: (now, limit) => call('unanswered', now, limit),
      release: async (key) => {
        await call('release', key)
      },
      prune: (now) => call('prune', now),
      ping: async () => {
        await call('ping')
      },
    }
  }

  sendCounter(object: string): SendCounter {
    const call = (method: string, ...args: unknown[]) =>
      this.#call({ port: 'counter', object, method, args })
    return {
      take: (buckets, now) => call('take', buckets, now),
      giveBack: async (buckets, takenAt, now) => {
        await call('giveBack', buckets, takenAt, now)
      },
      prune: (now) => call('prune', now),
      ping: async () => {
        await call('ping')
      },
    }
  }

  /** `ids` makes the `_id` each insert proposes, as the adapter's own sequence would. */
  mailLog(
    object: string,
    { ids, retentionDays }: { ids?: { next(): string }; retentionDays?: number } = {},
  ): MailLog<MailLogEntry> {
    const call = (method: string, args: unknown[], options: Options = {}) =>
      this.#call({ port: 'log', object, method, args, retentionDays, ...options })
    return {
      insert: (record, owner) =>
        call('insert', owner === undefined ? [record] : [record, owner], {
          proposedId: ids?.next(),
        }),
      list: (options) => call('list', [options]),
      prune: (olderThan) => call('prune', [olderThan.getTime()]),
      ping: async () => {
        await call('ping', [])
      },
      close: async () => {},
    }
  }

  mailEvents(object: string): MailEvents {
    const call = (method: string, ...args: unknown[]) =>
      this.#call({ port: 'events', object, method, args })
    return {
      takeToken: (token, eventId, expiresAt) => call('takeToken', token, eventId, expiresAt),
      file: (messageId, event) => call('file', messageId, event),
      eventsOf: async (messageIds) =>
        new Map((await call('eventsOf', messageIds)) as [string, MailEvent[]][]),
      prune: (olderThan) => call('prune', olderThan.getTime()),
      ping: async () => {
        await call('ping')
      },
      close: async () => {},
    }
  }

  dispose(): Promise<void> {
    return this.#worker.dispose()
  }
}
