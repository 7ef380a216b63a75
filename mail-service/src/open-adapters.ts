import type { Settings } from './env.js'
import { DetaIdempotencyStore } from './idempotency/deta-idempotency-store.js'
import type { IdempotencyStore } from './idempotency/idempotency-store.js'
import { DetaMailLog } from './mail-log/deta-mail-log.js'
import type { MailLog, MailLogEntry } from './mail-log/mail-log.js'
import type { Mailer } from './mailer/mailer.js'
import { MailgunMailer } from './mailer/mailgun-mailer.js'
import { OutboxMailer, type OutboxMessage } from './mailer/outbox-mailer.js'
import { DetaSendCounter } from './rate-limits/deta-send-counter.js'
import type { SendCounter } from './rate-limits/send-counter.js'

/**
 * Where the service's state lives, each kind on its own: the logs (the mail log and the outbox),
 * the idempotency keys and the send counts. An entry chooses, by its settings and its runtime.
 */
export type StateStores = {
  open<T extends object>(name: 'maillog' | 'outbox'): Promise<MailLog<T>>
  idempotency(): Promise<IdempotencyStore>
  sendCounter(): Promise<SendCounter>
}

/**
 * How long a key may stay without an answer before it counts as abandoned (its instance ended
 * mid-request) and is free again: longer than any send is followed (MAIL_GIVE_UP_MS).
 */
export function abandonKeysAfterMs(settings: Settings): number {
  return settings.mail.giveUpMs + 60_000
}

/** Every kind of state in the Deta Base DETA_PROJECT_KEY names (bases maillog, outbox, ...). */
export function detaStores(settings: Settings): StateStores | undefined {
  const { deta } = settings
  if (!deta) return undefined
  return {
    open: async (baseName) =>
      new DetaMailLog({ ...deta, baseName, retentionDays: settings.mailLogRetentionDays }),
    idempotency: async () =>
      new DetaIdempotencyStore({ ...deta, abandonAfterMs: abandonKeysAfterMs(settings) }),
    sendCounter: async () => new DetaSendCounter(deta),
  }
}

export type Adapters = {
  mailer: Mailer
  mailLog: MailLog<MailLogEntry>
  /** Present when the outbox is the transport. */
  outbox?: OutboxMailer
  idempotency: IdempotencyStore
  counter: SendCounter
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
  if (transport.kind === 'mailgun') {
    // The provider is followed past the client's wait, up to MAIL_GIVE_UP_MS.
    const mailer = new MailgunMailer({ ...transport, timeoutMs: mail.giveUpMs, logError })
    return { mailLog, mailer, idempotency, counter }
  }
  const outbox = new OutboxMailer(await stores.open<OutboxMessage>('outbox'))
  return { mailLog, mailer: outbox, outbox, idempotency, counter }
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
