import type { Settings } from './env.js'
import type { Mailer } from './mailer/mailer.js'
import { MailgunMailer } from './mailer/mailgun-mailer.js'
import { OutboxMailer, type OutboxMessage } from './mailer/outbox-mailer.js'
import type { IdempotencyStore } from './ports/idempotency-store.js'
import type { MailEvents } from './ports/mail-events.js'
import type { MailLog, MailLogEntry } from './ports/mail-log.js'
import type { SendCounter } from './ports/send-counter.js'
import type { StateStores } from './ports/state-stores.js'

export type Adapters = {
  mailer: Mailer
  mailLog: MailLog<MailLogEntry>
  /** Present when the outbox is the transport. */
  outbox?: OutboxMailer
  idempotency: IdempotencyStore
  counter: SendCounter
  /** Mailgun's events, when MAILGUN_WEBHOOK_SIGNING_KEY is set. */
  events?: MailEvents
}

/**
 * Opens the state where `stores` say and wires Mailgun or the outbox as the transport. Shared
 * by both entries.
 */
export async function openAdapters(
  settings: Settings,
  stores: StateStores,
  logError: (line: string) => void = console.error,
): Promise<Adapters> {
  const { transport, mail } = settings
  const mailLog = await stores.open<MailLogEntry>('maillog')
  const idempotency = await stores.idempotency()
  const counter = await stores.sendCounter()
  const events = settings.webhookSigningKey ? await stores.events() : undefined
  const state = { mailLog, idempotency, counter, ...(events && { events }) }
  if (transport.kind === 'mailgun') {
    // The provider is followed past the client's wait, up to MAIL_GIVE_UP_MS.
    const mailer = new MailgunMailer({ ...transport, timeoutMs: mail.giveUpMs, logError })
    return { ...state, mailer }
  }
  const outbox = new OutboxMailer(await stores.open<OutboxMessage>('outbox'))
  return { ...state, mailer: outbox, outbox }
}

/** The lines an entry prints at start, saying plainly where mail goes and where state lives. */
export function describeSetup(settings: Settings, logs: string): string[] {
  const { transport } = settings
  if (transport.kind === 'mailgun') {
    return [
      `transport: Mailgun at ${transport.baseUrl}, domain ${transport.domain}`,
      `state: ${logs}`,
    ]
  }
  return [
    '*** OUTBOX MODE: mail is NOT delivered. Messages are only kept; list them with GET /outbox.',
    '*** To send for real, set MAIL_APIKEY and MAIL_DOMAIN (Mailgun).',
    `state: ${logs}`,
  ]
}
