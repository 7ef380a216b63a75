import type { RequestRecord } from '@movies-and-mail/http-kit/app'
import { httpServerMetrics } from '@movies-and-mail/http-kit/node-metrics'
import { Counter, Histogram, type Registry } from 'prom-client'
import type { Mailer } from '../mailer/mailer.js'
import { timedMailer } from '../mailer/timed-mailer.js'
import { eventNames } from '../ports/mail-events.js'
import type { SendMailDeps } from '../sendmail/send-mail.js'
import type { WebhooksDeps } from '../webhooks/webhooks.app.js'

/** Buckets for a provider's answer: a Mailgun call takes from tens of ms to the 10 s timeout. */
const providerBuckets = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30]

export type MailMetrics = {
  registry: Registry
  onResponse: (record: RequestRecord) => void
  onSend: NonNullable<SendMailDeps['onSend']>
  onDeliveryEvent: NonNullable<WebhooksDeps['onDeliveryEvent']>
  /** `mailer` with its calls timed into `mail_provider_request_duration_seconds`. */
  timed: (mailer: Mailer) => Mailer
}

/**
 * mail-service's Prometheus metrics on Node: the kit's HTTP and process metrics, the calls to
 * the transport (Mailgun, or the outbox) by outcome with their duration, the sends by outcome
 * (sent, replayed, rate_limited with the limit that refused, failed, timed_out) and Mailgun's
 * delivery events by kind. Every label is one of a fixed list, each counter starts at 0.
 * @example const metrics = mailMetrics(); createApp({ mailer: metrics.timed(mailer), ... })
 */
export function mailMetrics(): MailMetrics {
  const http = httpServerMetrics()
  const registers = [http.registry]
  const provider = new Histogram<'outcome'>({
    name: 'mail_provider_request_duration_seconds',
    help: 'Calls to the mail transport, by outcome (sent, sent-unreadable, refused, unknown: no answer in time, error: it threw), with their duration.',
    labelNames: ['outcome'],
    buckets: providerBuckets,
    registers,
  })
  const sends = new Counter<'outcome' | 'limit'>({
    name: 'mail_sends_total',
    help: 'POST /sendmail requests by what became of the send: sent, replayed, rate_limited (by limit: recipient or key), failed (the provider refused), timed_out.',
    labelNames: ['outcome', 'limit'],
    registers,
  })
  const events = new Counter<'kind'>({
    name: 'mail_delivery_events_total',
    help: "Mailgun's events filed from POST /webhooks/mailgun, by kind.",
    labelNames: ['kind'],
    registers,
  })
  for (const outcome of ['sent', 'replayed', 'failed', 'timed_out']) sends.inc({ outcome }, 0)
  for (const limit of ['recipient', 'key']) sends.inc({ outcome: 'rate_limited', limit }, 0)
  for (const kind of eventNames) events.inc({ kind }, 0)
  return {
    registry: http.registry,
    onResponse: http.observe,
    onSend: (send) => sends.inc(send),
    onDeliveryEvent: (kind) => events.inc({ kind }),
    timed: (mailer) =>
      timedMailer(mailer, (outcome, seconds) => provider.observe({ outcome }, seconds)),
  }
}
