/** What the provider reports of a message, as Mailgun names its events. */
export const eventNames = [
  'accepted',
  'delivered',
  'failed',
  'opened',
  'clicked',
  'unsubscribed',
  'complained',
] as const
export type EventName = (typeof eventNames)[number]

/**
 * One event of a send, as a record answers it: what happened and when (the provider's own
 * time), and for a failure its severity and the receiving server's reason. `id` is the
 * provider's event id, which keeps a retried event from being filed twice.
 */
export type MailEvent = {
  id: string
  event: EventName
  /** ISO 8601, from the event's own timestamp. */
  at: string
  severity?: 'temporary' | 'permanent'
  reason?: string
  code?: number
  description?: string
}

/**
 * Where a send stands. `accepted` from the send on; `outbox` when the outbox kept it (it was
 * never delivered); then the newest event that says more (opened and clicked do not).
 */
export type DeliveryStatus =
  | 'accepted'
  | 'deferred'
  | 'delivered'
  | 'failed'
  | 'complained'
  | 'unsubscribed'
  | 'outbox'
export const deliveryStatuses = [
  'accepted',
  'deferred',
  'delivered',
  'failed',
  'complained',
  'unsubscribed',
  'outbox',
] as const satisfies readonly DeliveryStatus[]

/** The status an event sets, or none (opened, clicked). */
function statusSetBy(event: MailEvent): DeliveryStatus | undefined {
  switch (event.event) {
    case 'failed':
      return event.severity === 'temporary' ? 'deferred' : 'failed'
    case 'opened':
    case 'clicked':
      return undefined
    default:
      return event.event
  }
}

/**
 * The events in the order they happened, by their own time (then by id, so that every store
 * and every arrival order answers the same list).
 */
export function inOrder(events: readonly MailEvent[]): MailEvent[] {
  return [...events].sort((a, b) =>
    a.at === b.at ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.at < b.at ? -1 : 1,
  )
}

/**
 * A send's status: that of its newest event that sets one, by the events' own time, so an older
 * event that arrives late never overrides a newer one; `initial` (accepted, or outbox) without.
 */
export function statusOf(
  events: readonly MailEvent[],
  initial: DeliveryStatus = 'accepted',
): DeliveryStatus {
  let status = initial
  for (const event of inOrder(events)) status = statusSetBy(event) ?? status
  return status
}

/** Whether a status is the last a send will have: waiting for more is pointless. */
export const isFinal = (status: DeliveryStatus) => status !== 'accepted' && status !== 'deferred'

/**
 * The provider's events, each kept under the message it is about (the provider's message id,
 * the send's `id` without its angle brackets), and the webhook tokens already taken.
 * An event for a message whose record is not written yet is kept all the same and shows on the
 * record once it is; one for a message never sent shows on no record and goes with `prune`.
 */
export interface MailEvents {
  /**
   * Takes a webhook token for `eventId` until `expiresAt` (ms since the epoch); resolves with
   * the event id that holds it: `eventId` when this call took it (or the same event took it
   * before: the provider's retry), another when a different event did (a replayed signature).
   */
  takeToken(token: string, eventId: string, expiresAt: number): Promise<string>
  /**
   * Files `event` under `messageId`, once by its `id` from any number of processes; resolves
   * `true` when this call filed it, `false` when it was filed before.
   */
  file(messageId: string, event: MailEvent): Promise<boolean>
  /** The events of each message id given, in the order they happened. */
  eventsOf(messageIds: readonly string[]): Promise<Map<string, MailEvent[]>>
  /** Removes the events that happened before `olderThan` and the expired tokens. */
  prune(olderThan: Date): Promise<number>
  ping(): Promise<void>
  close(): Promise<void>
}

/** The provider's message id of a send's answer: its `id` without the angle brackets. */
export function messageIdOf(output: Record<string, unknown>): string | undefined {
  const id = output.id
  return typeof id === 'string' ? id.replace(/^<|>$/g, '') : undefined
}
