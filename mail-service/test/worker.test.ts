import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { closedPortUrl, trickledPost } from '@movies-and-mail/test-kit'
import { Miniflare } from 'miniflare'
import { describe, expect, it, vi } from 'vitest'
import {
  ada,
  bindings,
  compatibilityDate,
  holdMailgunResponse,
  mailgunBody,
  mailgunKey,
  mailStateObjects,
  outbound,
  useWorker,
  warmedUp,
  workerForThisTest,
  workerModules,
} from './support/worker-under-test.js'

const { mf, send } = useWorker()

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
    const [insert, ...more] = outbound.deta.requestsTo('maillog')
    expect(more).toEqual([])
    expect(insert).toEqual({
      method: 'POST',
      host: 'base.example.com',
      path: '/v1/w0rk/maillog/items',
      apiKey: 'w0rk_detasecret',
      body: {
        item: {
          ...ada,
          output: JSON.parse(mailgunBody),
          // The digest of the key that sent it (GET /maillog lists it to that key).
          owner: expect.stringMatching(/^[0-9a-f]{32}$/),
          key: expect.stringMatching(/^[0-9a-f]{24}$/),
          __expires: expect.any(Number),
        },
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
      outbound.mailgunResponse = async () => new Response(body, { status, statusText: '' })
      const response = await send(ada)
      expect(response.status).toBe(status)
      expect(await response.json()).toEqual({ error })
      expect(outbound.toMailgun()).toHaveLength(1)
      expect(outbound.deta.requestsTo('maillog')).toEqual([])
    },
  )

  it('answers 504 when Mailgun does not answer within MAIL_TIMEOUT_MS, and logs the late send', async () => {
    const release = holdMailgunResponse()
    const response = await send(ada)
    expect(response.status).toBe(504)
    expect(outbound.toMailgun()).toHaveLength(1)
    release()
    await vi.waitFor(() => expect(outbound.deta.items('maillog')).toHaveLength(1), {
      timeout: 5_000,
    })
  })

  it('answers 502 when Mailgun cannot be reached', async () => {
    // No outbound stand-in: the fetch goes to a port where nothing listens.
    const unreachable = new Miniflare({
      modules: workerModules(),
      compatibilityDate,
      bindings: { ...bindings, MAIL_API_URL: await closedPortUrl(), DETA_PROJECT_KEY: '' },
      durableObjects: mailStateObjects,
    })
    await warmedUp(unreachable)
    const response = await unreachable.dispatchFetch('http://worker.test/sendmail', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': 'worker-mail-api-key' },
      body: JSON.stringify(ada),
    })
    expect(response.status).toBe(502)
    // workerd reports a refused connection as a lost one: its outcome is taken as unknown.
    expect(await response.json()).toEqual({
      error: 'the connection to the mail provider was lost before it answered',
    })
    await unreachable.dispose()
  })

  it('still answers 201 when the log keeps failing', async () => {
    outbound.deta.failing.add('maillog')
    const response = await send(ada)
    expect(response.status).toBe(201)
    const inserts = outbound.deta.requestsTo('maillog').filter(({ method }) => method === 'POST')
    expect(inserts).toHaveLength(3)
  })

  it.each([
    ['a wrong key', ada, { 'x-apikey': 'nope' }, 401],
    ['a list of addresses', { ...ada, email: 'ada@example.com,eve@example.com' }, {}, 400],
    ['a header injection', { ...ada, email: 'ada@example.com\r\nBcc: eve@example.com' }, {}, 400],
    ['a display name', { ...ada, email: 'Ada <ada@example.com>' }, {}, 400],
    ['invalid JSON', '{"email":', {}, 400],
    ['a lone surrogate in the name', '{"email":"ada@example.com","name":"Ada\\ud800"}', {}, 400],
    ['a wrong content type', ada, { 'content-type': 'text/plain' }, 415],
    ['an oversized body', { ...ada, pad: 'x'.repeat(17_000) }, {}, 413],
  ])('refuses %s before calling Mailgun', async (_, body, headers, status) => {
    const response = await send(body, headers)
    expect(response.status).toBe(status)
    expect(await response.json()).toHaveProperty('error')
    expect(outbound.requests).toEqual([])
  })

  it('answers 408 to a body that trickles in past BODY_TIMEOUT_MS, and sends nothing', async () => {
    const slowWorker = await warmedUp(workerForThisTest({ ...bindings, BODY_TIMEOUT_MS: '1000' }))
    const url = String(await slowWorker.ready)
    const { answer } = await trickledPost(url, '/sendmail', JSON.stringify(ada), {
      headers: { 'x-apikey': bindings.API_KEYS },
    })
    expect(answer?.status).toBe(408)
    expect(JSON.parse(String(answer?.body))).toEqual({
      error: 'the request body did not arrive within 1 s',
    })
    expect(outbound.toMailgun()).toEqual([])
  })

  it('answers a method /sendmail does not have with 405 and Allow', async () => {
    const response = await mf().dispatchFetch('http://worker.test/sendmail')
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST, OPTIONS'])
    expect(await response.json()).toEqual({
      error: 'GET is not allowed on /sendmail; it allows POST, OPTIONS',
    })
  })

  it('answers a CORS preflight of a page that sends the key', async () => {
    const response = await mf().dispatchFetch('http://worker.test/sendmail', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://other.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-apikey',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toContain('POST')
    expect(response.headers.get('access-control-allow-headers')).toContain('x-apikey')
  })

  it('serves its OpenAPI document and docs page', async () => {
    const document = (await (
      await mf().dispatchFetch('http://worker.test/openapi.json')
    ).json()) as {
      paths: Record<string, unknown>
    }
    expect(Object.keys(document.paths)).toContain('/sendmail')
    const docs = await mf().dispatchFetch('http://worker.test/docs')
    const page = await docs.text()
    expect(page).toContain('<div id="swagger-ui"></div>')
    // Swagger UI's files and the init script: static assets beside the Worker, not in its script.
    const installed = (name: string) =>
      readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`), 'utf8')
    const files = page.match(/docs\/[\w.-]+\?v=\w+/g) ?? []
    expect(files).toHaveLength(3)
    for (const url of files) {
      const file = await mf().dispatchFetch(`http://worker.test/${url}`)
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const name = url.slice('docs/'.length, url.indexOf('?'))
      expect(await file.text()).toEqual(
        name === 'init.js' ? expect.stringContaining("'openapi.json'") : installed(name),
      )
    }
  })
})

describe('the Worker without API_KEYS', () => {
  it('serves nothing, whatever key is sent: it must never run open', async () => {
    const { API_KEYS: _, ...rest } = bindings
    const unkeyed = workerForThisTest(rest)
    for (const key of ['worker-mail-api-key', '', 'anything']) {
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
