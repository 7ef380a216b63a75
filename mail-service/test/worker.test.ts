import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { closedPortUrl } from './support/mailgun-stand-in.js'
import { ensureBuilt } from './support/run-server.js'
import { WorkerOutbound } from './support/worker-outbound.js'

const scriptPath = fileURLToPath(new URL('../dist/worker.js', import.meta.url))
/** The date the deployment uses (wrangler.toml), so the test runs what is deployed. */
const compatibilityDate = /^compatibility_date = "([\d-]+)"/m.exec(
  readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8'),
)?.[1]
const mailgunKey = 'key-WORKER-SECRET-91c2'
const mailgunBody =
  '{"id":"<20260101120000.abc123@mg.example.com>", "message":"Queued. Thank you."}'

/** Mailgun accepts at once, unless a test says otherwise. */
const accepted = async () => new Response(mailgunBody, { status: 200 })
/** Stands in for Mailgun and for the Deta Base host, and records what the Worker sent them. */
const outbound = new WorkerOutbound('api.eu.mailgun.net', 'base.example.com', accepted)

function worker(bindings: Record<string, string>) {
  return new Miniflare({
    modules: true,
    scriptPath,
    compatibilityDate,
    bindings,
    outboundService: outbound.fetch,
  })
}

/** A Worker with settings of its own, disposed when the test ends. */
function workerForThisTest(bindings: Record<string, string>): Miniflare {
  const instance = worker(bindings)
  onTestFinished(() => instance.dispose())
  return instance
}

/** Holds Mailgun's answer back until the returned function is called. */
function holdMailgunAnswer(): () => void {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  outbound.mailgunAnswer = () => released.then(accepted)
  return release
}

const bindings = {
  API_KEYS: 'worker-key',
  MAIL_APIKEY: mailgunKey,
  MAIL_DOMAIN: 'mg.example.com',
  MAIL_REGION: 'eu',
  MAIL_FROM: 'Movies <hello@mg.example.com>',
  MAIL_TEXT: 'Dear {name}, hello.',
  MAIL_TIMEOUT_MS: '500',
  DETA_PROJECT_KEY: 'w0rk_detasecret',
  DETA_BASE_HOST: 'base.example.com',
  CORS_ORIGINS: 'https://app.example',
}

let mf: Miniflare
beforeAll(async () => {
  ensureBuilt()
  mf = worker(bindings)
  await mf.ready
})
afterAll(async () => {
  await mf.dispose()
})
beforeEach(() => {
  outbound.reset()
})

const sendTo = (instance: Miniflare, body: unknown, headers: Record<string, string> = {}) =>
  instance.dispatchFetch('http://worker.test/sendmail', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-apikey': 'worker-key', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
const send = (body: unknown, headers: Record<string, string> = {}) => sendTo(mf, body, headers)

/** Sends `body` `times` times, one after the other; their statuses. */
async function statusesOf(instance: Miniflare, body: unknown, times: number): Promise<number[]> {
  const statuses: number[] = []
  for (let sent = 0; sent < times; sent++) statuses.push((await sendTo(instance, body)).status)
  return statuses
}

const ada = { email: 'ada@example.com', name: 'Ada' }

describe('the Worker bundle under Miniflare', () => {
  it('sends Mailgun (EU host) exactly the request it expects and answers its body byte for byte', async () => {
    const response = await send(ada)
    expect(response.status).toBe(201)
    expect(await response.text()).toBe(mailgunBody)
    expect(outbound.toMailgun()).toEqual([
      {
        url: 'https://api.eu.mailgun.net/v3/mg.example.com/messages',
        method: 'POST',
        headers: expect.objectContaining({
          authorization: `Basic ${btoa(`api:${mailgunKey}`)}`,
          'content-type': expect.stringMatching(/^multipart\/form-data; boundary=/),
        }),
        fields: [
          ['from', 'Movies <hello@mg.example.com>'],
          ['to', 'ada@example.com'],
          ['subject', 'Hello from the movies app'],
          ['text', 'Dear Ada, hello.'],
        ],
      },
    ])
  })

  it('logs the send to the Deta Base host it was given, through the SDK', async () => {
    await send(ada)
    const [insert, ...more] = outbound.toBase('maillog')
    expect(more).toEqual([])
    expect(insert?.url).toBe('https://base.example.com/v1/w0rk/maillog/items')
    expect(insert?.headers['x-api-key']).toBe('w0rk_detasecret')
    expect(insert?.json).toEqual({
      item: {
        ...ada,
        output: JSON.parse(mailgunBody),
        key: expect.stringMatching(/^[0-9a-f]{24}$/),
        __expires: expect.any(Number),
      },
    })
    // The Base forgets the record by itself after MAILLOG_RETENTION_DAYS (90 by default).
    const [record] = outbound.deta.items('maillog')
    expect(Math.round((Number(record?.__expires) - Date.now() / 1000) / 86_400)).toBe(90)
  })

  it.each([
    [400, '{"message":"bad to"}', 'Bad Request'],
    [401, 'Forbidden', 'Unauthorized'],
    [429, '', 'Too Many Requests'],
    [500, 'oops', 'Internal Server Error'],
  ])(
    'passes a provider %i on with its status text, logging nothing',
    async (status, body, error) => {
      outbound.mailgunAnswer = async () => new Response(body, { status, statusText: '' })
      const response = await send(ada)
      expect(response.status).toBe(status)
      expect(await response.json()).toEqual({ error })
      expect(outbound.toMailgun()).toHaveLength(1)
      expect(outbound.toBase('maillog')).toEqual([])
    },
  )

  it('answers 504 when Mailgun does not answer within MAIL_TIMEOUT_MS, and logs the late send', async () => {
    const release = holdMailgunAnswer()
    const response = await send(ada)
    expect(response.status).toBe(504)
    expect(outbound.toMailgun()).toHaveLength(1)
    release()
    await vi.waitFor(() => expect(outbound.deta.items('maillog')).toHaveLength(1), {
      timeout: 5_000,
    })
  })

  it('answers 502 when Mailgun cannot be reached', async () => {
    const unreachable = new Miniflare({
      modules: true,
      scriptPath,
      compatibilityDate,
      bindings: { ...bindings, MAIL_API_URL: await closedPortUrl(), DETA_PROJECT_KEY: '' },
    })
    const response = await unreachable.dispatchFetch('http://worker.test/sendmail', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': 'worker-key' },
      body: JSON.stringify(ada),
    })
    expect(response.status).toBe(502)
    expect(await response.json()).toEqual({ error: 'the mail provider could not be reached' })
    await unreachable.dispose()
  })

  it('still answers 201 when the log keeps failing', async () => {
    outbound.deta.failing.add('maillog')
    const response = await send(ada)
    expect(response.status).toBe(201)
    const inserts = outbound.toBase('maillog').filter(({ method }) => method === 'POST')
    expect(inserts).toHaveLength(3)
  })

  it.each([
    ['a wrong key', ada, { 'x-apikey': 'nope' }, 401],
    ['a list of addresses', { ...ada, email: 'ada@example.com,eve@example.com' }, {}, 400],
    ['a header injection', { ...ada, email: 'ada@example.com\r\nBcc: eve@example.com' }, {}, 400],
    ['a display name', { ...ada, email: 'Ada <ada@example.com>' }, {}, 400],
    ['invalid JSON', '{"email":', {}, 400],
    ['a wrong content type', ada, { 'content-type': 'text/plain' }, 415],
    ['an oversized body', { ...ada, pad: 'x'.repeat(17_000) }, {}, 413],
  ])('refuses %s before calling Mailgun', async (_, body, headers, status) => {
    const response = await send(body, headers)
    expect(response.status).toBe(status)
    expect(await response.json()).toHaveProperty('error')
    expect(outbound.requests).toEqual([])
  })

  it('answers a CORS preflight from the allowed origin', async () => {
    const response = await mf.dispatchFetch('http://worker.test/sendmail', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(response.headers.get('access-control-allow-headers')).toContain('x-apikey')
  })

  it('serves its OpenAPI document and docs page', async () => {
    const document = (await (await mf.dispatchFetch('http://worker.test/openapi.json')).json()) as {
      paths: Record<string, unknown>
    }
    expect(Object.keys(document.paths)).toContain('/sendmail')
    const docs = await mf.dispatchFetch('http://worker.test/docs')
    expect(await docs.text()).toContain('<code>/sendmail</code>')
  })
})

describe('the Worker with an Idempotency-Key, keys in the Deta Base', () => {
  const key = { 'idempotency-key': 'signup-4711' }

  it('answers a repeat with the first 201, replayed, and sends nothing more', async () => {
    const first = await send(ada, key)
    const repeat = await send(ada, key)
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expect(repeat.status).toBe(201)
    expect(repeat.headers.get('idempotent-replayed')).toBe('true')
    expect(await repeat.text()).toBe(await first.text())
    expect(outbound.toMailgun()).toHaveLength(1)
    expect(outbound.deta.items('maillog')).toHaveLength(1)
    // Scoped to the API key and hashed: the Base holds neither value as sent.
    expect(outbound.deta.items('idempotency')).toEqual([
      expect.objectContaining({ key: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ])
  })

  it('refuses the key with another body: 422, nothing sent', async () => {
    expect((await send(ada, key)).status).toBe(201)
    const other = await send({ ...ada, name: 'Eve' }, key)
    expect(other.status).toBe(422)
    expect(await other.json()).toEqual({ error: expect.any(String) })
    expect(outbound.toMailgun()).toHaveLength(1)
  })

  it('frees the key when Mailgun refuses, so a retry with it sends', async () => {
    outbound.mailgunAnswer = async () => new Response('oops', { status: 500 })
    expect((await send(ada, key)).status).toBe(500)
    outbound.mailgunAnswer = accepted
    const retry = await send(ada, key)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBeNull()
    expect(outbound.toMailgun()).toHaveLength(2)
  })

  it('follows a send past its 504 (waitUntil) and replays its late 201 to a retry', async () => {
    const release = holdMailgunAnswer()
    expect((await send(ada, key)).status).toBe(504)
    expect((await send(ada, key)).status).toBe(409)
    release()
    // Only work handed to waitUntil outlives the answer: dropped, the key would stay unanswered.
    await vi.waitFor(
      () =>
        expect(outbound.deta.items('idempotency')).toEqual([
          expect.objectContaining({ answer: { status: 201, body: mailgunBody } }),
        ]),
      { timeout: 5_000 },
    )
    const retry = await send(ada, key)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(await retry.text()).toBe(mailgunBody)
    expect(outbound.toMailgun()).toHaveLength(1)
    expect(outbound.deta.items('maillog')).toEqual([expect.objectContaining(ada)])
  })
})

describe('the Worker without DETA_PROJECT_KEY', () => {
  it('keeps the keys in memory: a repeat is replayed within the isolate', async () => {
    const { DETA_PROJECT_KEY: _, DETA_BASE_HOST: __, ...withoutDeta } = bindings
    const local = workerForThisTest(withoutDeta)
    const key = { 'idempotency-key': 'signup-4711' }
    expect((await sendTo(local, ada, key)).status).toBe(201)
    const repeat = await sendTo(local, ada, key)
    expect(repeat.status).toBe(201)
    expect(repeat.headers.get('idempotent-replayed')).toBe('true')
    expect(await repeat.text()).toBe(mailgunBody)
    expect(outbound.requests.map(({ url }) => new URL(url).host)).toEqual(['api.eu.mailgun.net'])
  })
})

describe("the Worker's rate limits, counted in the Deta Base", () => {
  it('refuses a fourth send to one address within the hour: 429, nothing sent or logged', async () => {
    const statuses = await statusesOf(mf, ada, 3)
    const refused = await send(ada)
    expect([...statuses, refused.status]).toEqual([201, 201, 201, 429])
    // The first send leaves the hour-long window in about an hour.
    const retryAfter = refused.headers.get('retry-after')
    expect(retryAfter).toMatch(/^\d+$/)
    expect(Number(retryAfter)).toBeGreaterThan(3_500)
    expect(Number(retryAfter)).toBeLessThanOrEqual(3_600)
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await refused.json()).toEqual({ error: expect.stringContaining('recipient') })
    expect(outbound.toMailgun()).toHaveLength(3)
    expect(outbound.deta.items('maillog')).toHaveLength(3)
  })

  it('sends every time with RATE_LIMIT_PER_RECIPIENT=0', async () => {
    const unlimited = workerForThisTest({ ...bindings, RATE_LIMIT_PER_RECIPIENT: '0' })
    expect(await statusesOf(unlimited, ada, 4)).toEqual([201, 201, 201, 201])
    expect(outbound.toMailgun()).toHaveLength(4)
    // Only the API key's limit still counts.
    const buckets = outbound.deta.items('sends').map(({ bucket }) => String(bucket))
    expect(buckets).toHaveLength(4)
    expect(buckets.every((bucket) => bucket.startsWith('key:'))).toBe(true)
  })
})

describe('the Worker without API_KEYS', () => {
  it('serves nothing, whatever key is sent: it must never run open', async () => {
    const { API_KEYS: _, ...rest } = bindings
    const unkeyed = workerForThisTest(rest)
    for (const key of ['worker-key', '', 'anything']) {
      const response = await unkeyed.dispatchFetch('http://worker.test/sendmail', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-apikey': key },
        body: JSON.stringify(ada),
      })
      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({
        error: 'the service is misconfigured; its log says which setting',
      })
    }
    const log = await unkeyed.dispatchFetch('http://worker.test/maillog')
    expect(log.status).toBe(503)
    expect(outbound.requests).toEqual([])
  })
})

describe('the Worker with a bad setting', () => {
  it('answers 503 without echoing any value', async () => {
    const broken = workerForThisTest({ ...bindings, MAIL_REGION: 'mars' })
    const response = await broken.dispatchFetch('http://worker.test/healthz')
    expect(response.status).toBe(503)
    const text = await response.text()
    expect(text).not.toContain(mailgunKey)
    expect(JSON.parse(text)).toEqual({
      error: 'the service is misconfigured; its log says which setting',
    })
  })
})
