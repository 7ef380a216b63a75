import { DurableIdempotencyStore } from '../durable/durable-idempotency-store.js'
import { DurableMailLog } from '../durable/durable-mail-log.js'
import { DurableSendCounter } from '../durable/durable-send-counter.js'
import { MailState, type MailStateNamespace } from '../durable/mail-state.js'
import type { Settings } from '../env.js'
import { abandonKeysAfterMs, detaStores, type StateStores } from '../open-adapters.js'

const object = 'the Durable Object MailStateObject (SQLite storage)'

/**
 * Where the Worker keeps its state: the idempotency keys and the send counts always in the mail
 * state object, one for every isolate, where taking a key or a bucket's last slot is one
 * transaction; the mail log and the outbox there too, or in the Deta Base when DETA_PROJECT_KEY
 * is set (a log needs no transaction; a key or a count does, and a Base has none). Nothing is
 * kept in an isolate. Answers the stores and the line that says where each kind of state lives.
 */
export function workerStores(
  settings: Settings,
  namespace: MailStateNamespace,
): { stores: StateStores; where: string } {
  const state = new MailState(namespace)
  const inObject: StateStores = {
    open: async (log) =>
      new DurableMailLog(state, { log, retentionDays: settings.mailLogRetentionDays }),
    idempotency: async () =>
      new DurableIdempotencyStore(state, { abandonAfterMs: abandonKeysAfterMs(settings) }),
    sendCounter: async () => new DurableSendCounter(state),
  }
  const base = detaStores(settings)
  if (!base) {
    return {
      stores: inObject,
      where: `mail log, outbox, idempotency keys and send counts in ${object}`,
    }
  }
  return {
    stores: { ...inObject, open: base.open },
    where:
      `mail log and outbox in the Deta Base at ${settings.deta?.host} (bases maillog, outbox); ` +
      `idempotency keys and send counts in ${object}`,
  }
}
