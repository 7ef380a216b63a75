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
 * The stores an entry keeps itself when no Deta Base is set: embedded on Node
 * (`node/embedded-stores.ts`), in memory on Workers.
 */
export type LocalStores = {
  open<T extends object>(name: 'maillog' | 'outbox'): Promise<MailLog<T>>
  idempotency(): Promise<IdempotencyStore>
  sendCounter(): Promise<SendCounter>
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
 * Wires the adapters the settings ask for: the logs, the idempotency keys and the send counts
 * in a Deta Base when DETA_PROJECT_KEY is set (else `local`), and Mailgun or the outbox as the
 * transport. Shared by both entries.
 */
export async function openAdapters(
  settings: Settings,
  local: LocalStores,
  logError: (line: string) => void = console.error,
): Promise<Adapters> {
  const { deta, transport, mail } = settings
  const stores: LocalStores = deta
    ? {
        open: async (baseName) =>
          new DetaMailLog({ ...deta, baseName, retentionDays: settings.mailLogRetentionDays }),
        // A key still without an answer this long after it was taken lost its instance.
        idempotency: async () =>
          new DetaIdempotencyStore({ ...deta, abandonAfterMs: mail.giveUpMs + 60_000 }),
        sendCounter: async () => new DetaSendCounter(deta),
      }
    : local
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

/** The lines an entry prints at start, saying plainly where mail goes and where logs live. */
export function describeSetup(settings: Settings, localLogs: string): string[] {
  const { transport, deta } = settings
  const logs = deta
    ? `Deta Base at ${deta.host} (bases maillog, outbox, idempotency, sends)`
    : localLogs
  if (transport.kind === 'mailgun') {
    return [
      `transport: Mailgun at ${transport.baseUrl}, domain ${transport.domain}`,
      `logs: ${logs}`,
    ]
  }
  return [
    '*** OUTBOX MODE: mail is NOT delivered. Messages are only kept; list them with GET /outbox.',
    '*** To send for real, set MAIL_APIKEY and MAIL_DOMAIN (Mailgun).',
    `logs: ${logs}`,
  ]
}
