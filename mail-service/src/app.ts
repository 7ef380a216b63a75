import { createServiceApp, type ServiceAppOptions } from '@movies-and-mail/http-kit/app'
import { addDocsRoutes } from '@movies-and-mail/http-kit/docs'
import { redactText } from '@movies-and-mail/http-kit/redact'
import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import { recordReader } from './api-keys/key-owner.js'
import { healthApp } from './health/health.app.js'
import type { Mailer, MailTemplate } from './mailer/mailer.js'
import type { OutboxMailer } from './mailer/outbox-mailer.js'
import type { IdempotencyStore } from './ports/idempotency-store.js'
import type { MailEvents } from './ports/mail-events.js'
import type { MailLog } from './ports/mail-log.js'
import type { SendCounter } from './ports/send-counter.js'
import type { RateLimits } from './rate-limits/buckets.js'
import { recordsApp } from './records/records.app.js'
import { Background } from './sendmail/background.js'
import type { MailLogRetry, SendMailDeps } from './sendmail/send-mail.js'
import { sendMailApp } from './sendmail/sendmail.app.js'
import { type WebhooksDeps, webhooksApp } from './webhooks/webhooks.app.js'

export type AppDeps = {
  mailer: Mailer
  mailLog: MailLog
  /** The outbox, when it is the transport: serves `GET /outbox`. */
  outbox?: OutboxMailer
  /** Accepted `x-apikey` values; with none, every call that needs a key is refused. */
  apiKeys: readonly string[]
  /**
   * The keys (among `apiKeys`) that list every record of the mail log and the outbox; every
   * other key lists the records it made. None by default.
   */
  adminApiKeys?: readonly string[]
  /** The origins whose pages may write without the key; every send needs one here anyway. */
  corsOrigins: readonly string[]
  /** How long a request's body may take to arrive (BODY_TIMEOUT_MS): 408 after it. */
  bodyTimeoutMs?: number
  template: MailTemplate
  /** One line per request goes here, newline included; null: none (a JSON log takes them). */
  log?: ((line: string) => void) | null
  /** Failures the client cannot see in full go here. */
  logError?: (line: string) => void
  /** Sees each finished request's record (metrics, a JSON log): the kit's `onResponse`. */
  onResponse?: ServiceAppOptions['onResponse']
  /** Takes unexpected errors as records instead of lines (a JSON log). */
  onError?: ServiceAppOptions['onError']
  /** Told what became of each send (metrics). */
  onSend?: SendMailDeps['onSend']
  /** Told the kind of each of Mailgun's events filed (metrics). */
  onDeliveryEvent?: WebhooksDeps['onDeliveryEvent']
  /** How a failed mail log insert is tried again. */
  retry?: MailLogRetry
  /** Where `Idempotency-Key`s are kept. */
  idempotency: IdempotencyStore
  /** Where sends are counted for the rate limits. */
  counter: SendCounter
  /** Off by default; the entries pass the settings' limits. */
  rateLimits?: RateLimits
  /** How long a client waits for the provider before a 504 (MAIL_TIMEOUT_MS). */
  timeoutMs?: number
  /**
   * How long the transport follows a send before it gives up (MAIL_GIVE_UP_MS): a key without
   * an answer a minute after it is no longer taken to be in progress.
   */
  giveUpMs?: number
  /** Where Mailgun's events are kept; the webhook needs it and `webhookSigningKey`. */
  events?: MailEvents
  /** MAILGUN_WEBHOOK_SIGNING_KEY; without it `POST /webhooks/mailgun` answers 404. */
  webhookSigningKey?: string | undefined
  /** Keeps sends that outlive their request; the Node entry waits for it when stopping. */
  background?: Background
}

/**
 * The whole mail service as a Hono app: routes, middleware and the OpenAPI document, with
 * every adapter handed in. Reads no environment and does no I/O until a request comes.
 * @example const app = createApp({ mailer, mailLog, apiKeys: ['mail-api-key-1234'], corsOrigins: ['*'], template })
 */
export function createApp({
  mailer,
  mailLog,
  outbox,
  apiKeys,
  adminApiKeys = [],
  corsOrigins,
  template,
  log = (line) => console.log(line.trimEnd()),
  logError: writeError = console.error,
  onResponse,
  onError,
  onSend,
  onDeliveryEvent,
  retry,
  idempotency,
  counter,
  rateLimits = { perRecipient: null, perKey: null },
  timeoutMs = 10_000,
  giveUpMs = 30_000,
  background = new Background(),
  bodyTimeoutMs,
  events,
  webhookSigningKey,
}: AppDeps) {
  // An error line may quote a library's message, and with it a URL that holds a password.
  const logError = (line: string) => writeError(redactText(line))
  // With no key the guard lets every call through (the rule in DESIGN.md); mail must never be
  // open, so each entry makes sure there is one, and the app refuses to exist without.
  if (apiKeys.length === 0) throw new Error('mail-service needs at least one API key (API_KEYS)')
  const app = createServiceApp({
    log,
    logError: (line) => logError(line.trimEnd()),
    onResponse,
    onError,
    corsOrigins,
    apiKeys,
    // A store that cannot answer, or has no room: 503 or 507, with the store's message.
    knownErrors: [
      [StoreUnavailableError, 503],
      [StoreFullError, 507],
    ],
    ...(bodyTimeoutMs !== undefined && { bodyTimeoutMs }),
  })
  // `include`, not `route`: the app's OpenAPI document is made of the routes it includes.
  // Every store a send needs: the log and keys and counts may live in different places.
  const stores = [
    ...[mailLog, idempotency, counter],
    ...(outbox ? [outbox] : []),
    ...(events ? [events] : []),
  ]
  app.include(healthApp({ stores, logError }))
  app.include(
    sendMailApp({
      ...{ mailer, mailLog, template, retry, logError, onSend },
      ...{ idempotency, counter, rateLimits, timeoutMs, giveUpMs, background },
    }),
  )
  app.include(
    recordsApp({ mailLog, outbox, events, readerOf: recordReader(adminApiKeys), logError }),
  )
  app.include(webhooksApp({ events, signingKey: webhookSigningKey, logError, onDeliveryEvent }))
  addDocsRoutes(app, {
    title: 'Mail service',
    version: '1.0.0',
    description: 'Sends a fixed greeting through Mailgun and logs every send.',
    tags: {
      Mail: 'Sending the greeting',
      Records: 'The mail log and the outbox',
      Events: "Mailgun's reports of each message",
    },
  })
  return app
}

export type MailApp = ReturnType<typeof createApp>
