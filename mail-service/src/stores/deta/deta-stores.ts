import type { Settings } from '../../env.js'
import type { StateStores } from '../../ports/state-stores.js'
import { DetaIdempotencyStore } from './deta-idempotency-store.js'
import { DetaMailEvents } from './deta-mail-events.js'
import { DetaMailLog } from './deta-mail-log.js'
import { DetaSendCounter } from './deta-send-counter.js'

/** Every kind of state in the Deta Base DETA_PROJECT_KEY names (bases maillog, outbox, ...). */
export function detaStores(settings: Settings): StateStores | undefined {
  const { deta } = settings
  if (!deta) return undefined
  return {
    open: async (baseName) =>
      new DetaMailLog({ ...deta, baseName, retentionDays: settings.mailLogRetentionDays }),
    idempotency: async () => new DetaIdempotencyStore(deta),
    sendCounter: async () => new DetaSendCounter(deta),
    events: async () =>
      new DetaMailEvents({ ...deta, retentionDays: settings.mailLogRetentionDays }),
  }
}
