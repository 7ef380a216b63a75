import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { Database } from 'lmdb'
import { inOrder, type MailEvent, type MailEvents } from '../../ports/mail-events.js'

/** Splits a message id from an event id in the index's keys: a message id holds no space. */
const separator = ' '

/**
 * Mailgun's events in the service's embedded store: database `mailevents` (the event by its id,
 * with the message it is about), `mailevents-by-message` (`<message id> <event id>`, so a
 * message's events are one range) and `webhook-tokens` (the event that took each token, until
 * when). This process owns the store, so what it is writing is also held in memory: two copies
 * of one event, or two events with one token, arriving at once are told apart before either
 * write is committed.
 * @example const events = new EmbeddedMailEvents(env)
 */
export class EmbeddedMailEvents implements MailEvents {
  readonly #env: EmbeddedEnv
  readonly #events: Database<string, string>
  readonly #byMessage: Database<string, string>
  readonly #tokens: Database<string, string>
  /** Tokens and events this process is writing, by token and by event id. */
  readonly #takingTokens = new Map<string, { eventId: string; expiresAt: number }>()
  readonly #filing = new Set<string>()

  constructor(env: EmbeddedEnv) {
    this.#env = env
    this.#events = env.database<string>('mailevents', 'string')
    this.#byMessage = env.database<string>('mailevents-by-message', 'string')
    this.#tokens = env.database<string>('webhook-tokens', 'string')
  }

  async takeToken(token: string, eventId: string, expiresAt: number): Promise<string> {
    const held = this.#takingTokens.get(token) ?? this.#readToken(token)
    if (held && held.expiresAt > Date.now()) return held.eventId
    const taken = { eventId, expiresAt }
    this.#takingTokens.set(token, taken)
    try {
      const json = JSON.stringify(taken)
      await this.#env.commit(json.length + token.length, () => this.#tokens.put(token, json))
      return eventId
    } finally {
      this.#takingTokens.delete(token)
    }
  }

  async file(messageId: string, event: MailEvent): Promise<boolean> {
    if (this.#filing.has(event.id) || this.#events.get(event.id) !== undefined) return false
    this.#filing.add(event.id)
    try {
      const json = JSON.stringify({ messageId, event })
      const indexKey = messageId + separator + event.id
      await this.#env.commit(json.length + indexKey.length, () => {
        this.#events.put(event.id, json)
        this.#byMessage.put(indexKey, '')
      })
      return true
    } finally {
      this.#filing.delete(event.id)
    }
  }

  async eventsOf(messageIds: readonly string[]): Promise<Map<string, MailEvent[]>> {
    const found = new Map<string, MailEvent[]>()
    for (const messageId of new Set(messageIds)) {
      const start = messageId + separator
      const events: MailEvent[] = []
      for (const key of this.#byMessage.getKeys({ start, end: `${messageId}!` })) {
        const value = this.#events.get(key.slice(start.length))
        if (value !== undefined) events.push((JSON.parse(value) as { event: MailEvent }).event)
      }
      if (events.length > 0) found.set(messageId, inOrder(events))
    }
    return found
  }

  /** Removes the events that happened before `olderThan` and the expired tokens, in one commit. */
  async prune(olderThan: Date): Promise<number> {
    const before = olderThan.toISOString()
    const old: [string, string][] = []
    for (const { key, value } of this.#events.getRange()) {
      const { messageId, event } = JSON.parse(value) as { messageId: string; event: MailEvent }
      if (event.at < before) old.push([key, messageId + separator + key])
    }
    const now = Date.now()
    const expired: string[] = []
    for (const { key, value } of this.#tokens.getRange()) {
      if (this.#takingTokens.has(key)) continue
      if ((JSON.parse(value) as { expiresAt: number }).expiresAt <= now) expired.push(key)
    }
    if (old.length + expired.length === 0) return 0
    await this.#env.commit(0, () => {
      for (const [key, indexKey] of old) {
        this.#events.remove(key)
        this.#byMessage.remove(indexKey)
      }
      for (const token of expired) this.#tokens.remove(token)
    })
    return old.length
  }

  async ping(): Promise<void> {
    this.#events.get('')
    await this.#env.probe()
  }

  async close(): Promise<void> {}

  #readToken(token: string): { eventId: string; expiresAt: number } | undefined {
    const value = this.#tokens.get(token)
    return value === undefined ? undefined : JSON.parse(value)
  }
}
