import { Deta } from 'deta'
import { inOrder, type MailEvent, type MailEvents } from '../../ports/mail-events.js'

type DetaBase = ReturnType<ReturnType<typeof Deta>['Base']>
type EventItem = MailEvent & { key: string; messageId: string; __expires?: number }
type TokenItem = { key: string; eventId: string; expiresAt: number }

const alreadyExists = (error: unknown) =>
  error instanceof Error && /already exists/.test(error.message)

export type DetaMailEventsOptions = {
  projectKey: string
  /** Any Deta-Base-compatible host, e.g. `database.deta.sh`. */
  host: string
  /** Days the Base keeps each event (its own expiry), as the mail log keeps its records. */
  retentionDays?: number | undefined
}

/**
 * Mailgun's events in Deta Bases through the `deta` SDK: `mailevents` (the event's id its key,
 * with the message it is about) and `webhooktokens` (the token its key, with the event that
 * took it). The Base's insert refuses a key that exists, so an event is filed once and a token
 * given to one event, whatever instance asks; the Base forgets both by their expiry.
 * @example new DetaMailEvents({ projectKey, host: 'database.deta.sh', retentionDays: 90 })
 */
export class DetaMailEvents implements MailEvents {
  readonly #events: DetaBase
  readonly #tokens: DetaBase
  readonly #expireIn: number | undefined

  constructor({ projectKey, host, retentionDays }: DetaMailEventsOptions) {
    const deta = Deta(projectKey)
    this.#events = deta.Base('mailevents', host)
    this.#tokens = deta.Base('webhooktokens', host)
    this.#expireIn = retentionDays === undefined ? undefined : retentionDays * 86_400
  }

  async takeToken(token: string, eventId: string, expiresAt: number): Promise<string> {
    const expireAt = new Date(expiresAt)
    try {
      await this.#tokens.insert({ eventId, expiresAt }, token, { expireAt })
      return eventId
    } catch (error) {
      if (!alreadyExists(error)) throw error
    }
    const held = (await this.#tokens.get(token)) as TokenItem | null
    if (held && held.expiresAt > Date.now()) return held.eventId
    // Expired and not yet removed by the Base: the next event's, as a put.
    await this.#tokens.put({ eventId, expiresAt }, token, { expireAt })
    return eventId
  }

  async file(messageId: string, { id, ...event }: MailEvent): Promise<boolean> {
    const expiry = this.#expireIn === undefined ? undefined : { expireIn: this.#expireIn }
    try {
      await this.#events.insert({ ...event, messageId }, id, expiry)
      return true
    } catch (error) {
      if (alreadyExists(error)) return false
      throw error
    }
  }

  /** One query for the messages given (the Base's OR of one condition each), page by page. */
  async eventsOf(messageIds: readonly string[]): Promise<Map<string, MailEvent[]>> {
    const found = new Map<string, MailEvent[]>()
    if (messageIds.length === 0) return found
    const query = [...new Set(messageIds)].map((messageId) => ({ messageId }))
    let last: string | undefined
    do {
      const page = await this.#events.fetch(query, { limit: 1000, last })
      for (const item of page.items as EventItem[]) {
        const { key, messageId, __expires: _expires, ...event } = item
        found.set(messageId, [...(found.get(messageId) ?? []), { ...event, id: key }])
      }
      last = page.last
    } while (last)
    for (const [messageId, events] of found) found.set(messageId, inOrder(events))
    return found
  }

  /** Removes nothing: the Base forgets events and tokens by their expiry. */
  async prune(_olderThan: Date): Promise<number> {
    return 0
  }

  async ping(): Promise<void> {
    await this.#events.fetch([], { limit: 1 })
  }

  async close(): Promise<void> {}
}
