import type { Settings } from '../../env.js'
import type { StateStores } from '../../ports/state-stores.js'
import { DurableIdempotencyStore } from './durable-idempotency-store.js'
import { DurableMailEvents } from './durable-mail-events.js'
import { DurableMailLog } from './durable-mail-log.js'
import { DurableSendCounter } from './durable-send-counter.js'
import { MailState, type MailStateNamespace } from './mail-state.js'

/**
 * Every kind of state in the mail state Durable Object (`MailStateObject`, SQLite storage), one
 * for every isolate, where taking a key or a bucket's last slot is one transaction.
 */
export function durableStores(settings: Settings, namespace: MailStateNamespace): StateStores {
  const state = new MailState(namespace)
  return {
    open: async (log) =>
      new DurableMailLog(state, { log, retentionDays: settings.mailLogRetentionDays }),
    idempotency: async () => new DurableIdempotencyStore(state),
    sendCounter: async () => new DurableSendCounter(state),
    events: async () => new DurableMailEvents(state),
  }
}
