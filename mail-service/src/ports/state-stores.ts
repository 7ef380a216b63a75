import type { IdempotencyStore } from './idempotency-store.js'
import type { MailEvents } from './mail-events.js'
import type { MailLog } from './mail-log.js'
import type { SendCounter } from './send-counter.js'

/**
 * Where the service's state lives, each kind on its own: the logs (the mail log and the outbox),
 * the idempotency keys, the send counts and
 * the provider's events. Each store of `stores/` opens all it serves; an entry chooses among
 * them by its settings and its runtime.
 */
export type StateStores = {
  open<T extends object>(name: 'maillog' | 'outbox'): Promise<MailLog<T>>
  idempotency(): Promise<IdempotencyStore>
  sendCounter(): Promise<SendCounter>
  /** Mailgun's events of the sends, and the webhook tokens taken. */
  events(): Promise<MailEvents>
}
