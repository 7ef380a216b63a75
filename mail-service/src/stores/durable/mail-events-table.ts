import type { SqlStorage } from '@cloudflare/workers-types'
import { inOrder, type MailEvent } from '../../ports/mail-events.js'

/** The events of one message, as the object answers them over RPC. */
export type MessageEvents = { messageId: string; events: MailEvent[] }

/**
 * Mailgun's events and the webhook tokens in the mail state object's SQLite storage: table
 * `mail_events` (the event's id its key, the message it is about indexed), table
 * `webhook_tokens` (the token its key, with the event that took it). The object runs each
 * method in one transaction, one call at a time, so an event is filed once and a token given to
 * one event, whatever isolate asks.
 */
export class MailEventsTable {
  readonly #sql: SqlStorage

  constructor(sql: SqlStorage) {
    this.#sql = sql
    sql.exec(
      'CREATE TABLE IF NOT EXISTS mail_events (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, ' +
        'at TEXT NOT NULL, json TEXT NOT NULL)',
    )
    sql.exec('CREATE INDEX IF NOT EXISTS mail_events_by_message ON mail_events (message_id, at)')
    sql.exec(
      'CREATE TABLE IF NOT EXISTS webhook_tokens (token TEXT PRIMARY KEY, ' +
        'event_id TEXT NOT NULL, expires_at REAL NOT NULL)',
    )
  }

  takeToken(token: string, eventId: string, expiresAt: number, now: number): string {
    const [held] = this.#sql
      .exec<{ event_id: string; expires_at: number }>(
        'SELECT event_id, expires_at FROM webhook_tokens WHERE token = ?',
        token,
      )
      .toArray()
    if (held && held.expires_at > now) return held.event_id
    this.#sql.exec(
      'INSERT INTO webhook_tokens (token, event_id, expires_at) VALUES (?, ?, ?) ' +
        'ON CONFLICT (token) DO UPDATE SET event_id = excluded.event_id, expires_at = excluded.expires_at',
      token,
      eventId,
      expiresAt,
    )
    return eventId
  }

  /** Files the event unless its id is there; whether it did. */
  file(messageId: string, event: MailEvent): boolean {
    const cursor = this.#sql.exec(
      'INSERT INTO mail_events (id, message_id, at, json) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (id) DO NOTHING',
      event.id,
      messageId,
      event.at,
      JSON.stringify(event),
    )
    return cursor.rowsWritten > 0
  }

  /** The events of each message id that has any, in the order they happened. */
  eventsOf(messageIds: readonly string[]): MessageEvents[] {
    const found: MessageEvents[] = []
    for (const messageId of new Set(messageIds)) {
      const rows = this.#sql
        .exec<{ json: string }>('SELECT json FROM mail_events WHERE message_id = ?', messageId)
        .toArray()
      if (rows.length > 0) {
        const events = inOrder(rows.map((row) => JSON.parse(row.json) as MailEvent))
        found.push({ messageId, events })
      }
    }
    return found
  }

  /** Forgets the events before `olderThan` (ISO 8601) and the tokens expired at `now`. */
  prune(olderThan: string, now: number): number {
    this.#sql.exec('DELETE FROM webhook_tokens WHERE expires_at <= ?', now)
    return this.#sql.exec('DELETE FROM mail_events WHERE at < ?', olderThan).rowsWritten
  }
}
