import { inOrder, type MailEvent, type MailEvents } from '../../../src/ports/mail-events.js'

/**
 * Keeps events and tokens in memory only, for tests: one map of events by id with the message
 * each is about, and one of tokens with the event that took each and until when.
 * @example const events = new MemoryMailEvents()
 */
export class MemoryMailEvents implements MailEvents {
  readonly #events = new Map<string, { messageId: string; event: MailEvent }>()
  readonly #tokens = new Map<string, { eventId: string; expiresAt: number }>()

  async takeToken(token: string, eventId: string, expiresAt: number): Promise<string> {
    const held = this.#tokens.get(token)
    if (held && held.expiresAt > Date.now()) return held.eventId
    this.#tokens.set(token, { eventId, expiresAt })
    return eventId
  }

  async file(messageId: string, event: MailEvent): Promise<boolean> {
    if (this.#events.has(event.id)) return false
    this.#events.set(event.id, { messageId, event: structuredClone(event) })
    return true
  }

  async eventsOf(messageIds: readonly string[]): Promise<Map<string, MailEvent[]>> {
    const wanted = new Set(messageIds)
    const found = new Map<string, MailEvent[]>()
    for (const { messageId, event } of this.#events.values()) {
      if (!wanted.has(messageId)) continue
      found.set(messageId, [...(found.get(messageId) ?? []), structuredClone(event)])
    }
    for (const [id, events] of found) found.set(id, inOrder(events))
    return found
  }

  async prune(olderThan: Date): Promise<number> {
    let removed = 0
    const before = olderThan.toISOString()
    for (const [id, { event }] of this.#events) {
      if (event.at < before) removed += Number(this.#events.delete(id))
    }
    for (const [token, { expiresAt }] of this.#tokens) {
      if (expiresAt <= Date.now()) this.#tokens.delete(token)
    }
    return removed
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
