import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  killBuiltEntries,
  MailgunStandIn,
  mailgunEvent,
  mailgunSigningKey,
  ScrapedMetrics,
  signedMailgunEvent,
} from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ensureBuilt, startServer } from './support/run-server.js'

const apiKey = 'metrics-test-key-1'
const mailgun = MailgunStandIn.forEachTest()
let dataDir: string

beforeAll(ensureBuilt)
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mail-service-metrics-'))
})
afterEach(async () => {
  await killBuiltEntries()
  await rm(dataDir, { recursive: true, force: true })
})

async function startWithMetrics() {
  const service = await startServer({
    DATA_DIR: dataDir,
    API_KEYS: apiKey,
    MAIL_APIKEY: 'key-test',
    MAIL_DOMAIN: 'mg.example.com',
    MAIL_API_URL: mailgun.baseUrl,
    MAIL_TIMEOUT_MS: '300',
    MAILGUN_WEBHOOK_SIGNING_KEY: mailgunSigningKey,
    METRICS_PORT: '0',
  })
  const metricsUrl = /metrics: (http:\/\/[\d.]+:\d+\/metrics)/.exec(service.stdout)?.[1]
  if (!metricsUrl) throw new Error(`no metrics line in:\n${service.stdout}`)
  const send = (email: string, headers: Record<string, string> = {}) =>
    fetch(`${service.url}/sendmail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': apiKey, ...headers },
      body: JSON.stringify({ email, name: 'Ada' }),
    })
  return { service, send, scrape: () => ScrapedMetrics.from(metricsUrl) }
}

describe('METRICS_PORT on mail-service', () => {
  it('counts sends by outcome, the provider calls by outcome, and delivery events by kind', async () => {
    const { service, send, scrape } = await startWithMetrics()
    const first = await send('ada@example.com')
    expect(first.status).toBe(201)
    const { id: messageId } = (await first.json()) as { id: string }
    const keyed = { 'idempotency-key': 'metrics-once' }
    expect((await send('bob@example.com', keyed)).status).toBe(201)
    const replay = await send('bob@example.com', keyed)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    // Three sends an hour to one recipient, by default: the fourth is refused.
    expect((await send('ada@example.com')).status).toBe(201)
    expect((await send('ada@example.com')).status).toBe(201)
    expect((await send('ada@example.com')).status).toBe(429)
    mailgun.reply = { status: 400, body: '{"message":"to parameter is not a valid address"}' }
    expect((await send('carol@example.com')).status).toBe(400)
    mailgun.reply = 'hang'
    expect((await send('dave@example.com')).status).toBe(504)
    // The connection lost before any answer: it may have been sent, as a 504's may.
    mailgun.reply = 'reset'
    expect((await send('erin@example.com')).status).toBe(502)
    const event = signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', messageId))
    const filed = await fetch(`${service.url}/webhooks/mailgun`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    })
    expect(await filed.json()).toEqual({ filed: true })

    const metrics = await scrape()
    const sends = (labels: Record<string, string>) => metrics.value('mail_sends_total', labels)
    expect(sends({ outcome: 'sent' })).toBe(4)
    expect(sends({ outcome: 'replayed' })).toBe(1)
    expect(sends({ outcome: 'rate_limited', limit: 'recipient' })).toBe(1)
    expect(sends({ outcome: 'rate_limited', limit: 'key' })).toBe(0)
    expect(sends({ outcome: 'failed' })).toBe(1)
    expect(sends({ outcome: 'timed_out' })).toBe(2)
    const provider = 'mail_provider_request_duration_seconds'
    expect(metrics.value(provider, { outcome: 'sent' })).toBe(4)
    expect(metrics.value(provider, { outcome: 'refused' })).toBe(1)
    expect(metrics.value('mail_delivery_events_total', { kind: 'delivered' })).toBe(1)
    expect(metrics.value('mail_delivery_events_total', { kind: 'failed' })).toBe(0)
    const route = { http_request_method: 'POST', http_route: '/sendmail' }
    const http = 'http_server_request_duration_seconds'
    expect(metrics.value(http, { ...route, http_response_status_code: '201' })).toBe(5)
    expect(metrics.value(http, { ...route, http_response_status_code: '429' })).toBe(1)
    expect(metrics.value(http, { http_route: '/webhooks/mailgun' })).toBe(1)

    const onApi = await fetch(`${service.url}/metrics`)
    expect(onApi.status).toBe(404)
    expect(await onApi.text()).not.toContain('mail_sends_total')
  })
})
