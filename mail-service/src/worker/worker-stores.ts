import type { Settings } from '../env.js'
import type { StateStores } from '../ports/state-stores.js'
import { detaStores } from '../stores/deta/deta-stores.js'
import { durableStores } from '../stores/durable/durable-stores.js'
import type { MailStateNamespace } from '../stores/durable/mail-state.js'

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
  const inObject = durableStores(settings, namespace)
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
