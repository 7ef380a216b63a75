// A test-only Worker: the mail state object's class and the four adapters over it, run inside
// workerd. `POST /` with a `Call` runs one method of one adapter over the object `object` names,
// answered `{ value }` or `{ thrown: { name, message } }`. `worker-state-harness.ts` bundles it,
// starts it under Miniflare and calls it from the contract suites.
import { DurableIdempotencyStore } from '../../src/stores/durable/durable-idempotency-store.js'
import { DurableMailEvents } from '../../src/stores/durable/durable-mail-events.js'
import { DurableMailLog } from '../../src/stores/durable/durable-mail-log.js'
import { DurableSendCounter } from '../../src/stores/durable/durable-send-counter.js'
import { MailState, type MailStateNamespace } from '../../src/stores/durable/mail-state.js'

export { MailStateObject } from '../../src/stores/durable/mail-state-object.js'

export type Call = {
  port: 'idempotency' | 'counter' | 'log' | 'events'
  /** The name of the object: one per fixture, so each starts empty. */
  object: string
  method: string
  args: unknown[]
  /** For the log: the `_id` its next insert proposes, made by the test's own sequence. */
  proposedId?: string
  retentionDays?: number
}

type Port = Record<string, (...args: unknown[]) => Promise<unknown>>

function adapterFor(call: Call, state: MailState): Port {
  if (call.port === 'idempotency') {
    return new DurableIdempotencyStore(state) as unknown as Port
  }
  if (call.port === 'counter') return new DurableSendCounter(state) as unknown as Port
  if (call.port === 'events') return new DurableMailEvents(state) as unknown as Port
  const proposedId = call.proposedId
  return new DurableMailLog(state, {
    log: 'maillog',
    retentionDays: call.retentionDays,
    ...(proposedId && { ids: { next: () => proposedId } }),
  }) as unknown as Port
}

export default {
  async fetch(request: Request, bindings: { MAIL_STATE: MailStateNamespace }): Promise<Response> {
    const call = (await request.json()) as Call
    const adapter = adapterFor(call, new MailState(bindings.MAIL_STATE, call.object))
    // JSON has no Date: the log's prune gets its time as milliseconds.
    const args =
      (call.port === 'log' || call.port === 'events') && call.method === 'prune'
        ? [new Date(call.args[0] as number)]
        : call.args
    try {
      const value = await adapter[call.method]?.(...args)
      // Nor a Map: the events of each message come as its entries.
      return Response.json({ value: value instanceof Map ? [...value] : (value ?? null) })
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error))
      return Response.json({ thrown: { name, message } })
    }
  },
}
