import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import type { ListOptions, MailLog, Stored } from '../ports/mail-log.js'
import type { Mailer, OutgoingMail, SendResult } from './mailer.js'

/** A message the outbox captured instead of delivering. */
export type OutboxMessage = OutgoingMail & { id: string; queuedAt: string }

/**
 * Delivers nothing: keeps each message in `store` and answers like Mailgun does
 * (`{"id":"<timestamp.hex@outbox.local>","message":"Queued. Thank you."}`), so everything
 * after the send behaves as in production. A message the store cannot keep rejects with
 * store-kit's `StoreFullError` (the disk is full) or `StoreUnavailableError`, and nothing was sent.
 */
export class OutboxMailer implements Mailer {
  #store: MailLog<OutboxMessage>

  constructor(store: MailLog<OutboxMessage>) {
    this.#store = store
  }

  /** Keeps the message under `owner`, the digest of the API key that sent it. */
  async send(mail: OutgoingMail, owner: string): Promise<SendResult> {
    const now = new Date()
    const id = `<${timestamp(now)}.${randomHex(8)}@outbox.local>`
    try {
      await this.#store.insert({ ...mail, id, queuedAt: now.toISOString() }, owner)
    } catch (error) {
      if (error instanceof StoreFullError) {
        throw new StoreFullError('no space left for the outbox', { cause: error })
      }
      throw new StoreUnavailableError('the outbox is unavailable', { cause: error })
    }
    const output = { id, message: 'Queued. Thank you.' }
    return { outcome: 'sent', body: JSON.stringify(output), output }
  }

  /** What was captured, newest first: of one owner, or every message (`ListOptions`). */
  list(options: ListOptions): Promise<Stored<OutboxMessage>[]> {
    return this.#store.list(options)
  }

  /** Forgets messages captured before `olderThan`; how many. */
  prune(olderThan: Date): Promise<number> {
    return this.#store.prune(olderThan)
  }

  ping(): Promise<void> {
    return this.#store.ping()
  }
}

function timestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14)
}

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
}
