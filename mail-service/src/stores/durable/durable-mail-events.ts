import type { MailEvent, MailEvents } from '../../ports/mail-events.js'
import type { MailState } from './mail-state.js'

/**
 * Mailgun's events in the mail state object (`mail-events-table.ts`), shared by every isolate:
 * the object files an event once and gives a token to one event, one call at a time.
 * @example new DurableMailEvents(new MailState(env.MAIL_STATE))
 */
export class DurableMailEvents implements MailEvents {
  readonly #state: MailState

  constructor(state: MailState) {
    this.#state = state
  }

  takeToken(token: string, eventId: string, expiresAt: number): Promise<string> {
    return this.#state.call((object) => object.takeToken(token, eventId, expiresAt, Date.now()))
  }

  file(messageId: string, event: MailEvent): Promise<boolean> {
    return this.#state.call((object) => object.fileEvent(messageId, event))
  }

  async eventsOf(messageIds: readonly string[]): Promise<Map<string, MailEvent[]>> {
    if (messageIds.length === 0) return new Map()
    const rows = await this.#state.call((object) => object.eventsOf([...messageIds]))
    return new Map(rows.map(({ messageId, events }) => [messageId, events]))
  }

  prune(olderThan: Date): Promise<number> {
    return this.#state.call((object) => object.pruneEvents(olderThan.toISOString(), Date.now()))
  }

  ping(): Promise<void> {
    return this.#state.call((object) => object.ping())
  }

  async close(): Promise<void> {}
}
