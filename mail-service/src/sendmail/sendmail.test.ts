import { StoreFullError } from '@movies-and-mail/store-kit'
import { closedPortUrl } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { MemoryMailLog } from '../../test/support/memory-stores/memory-mail-log.js'
import {
  apiKey,
  appPerTest,
  mailgunSecret,
  sendMail,
  template,
  testApp,
} from '../../test/support/test-app.js'
import { OutboxMailer, type OutboxMessage } from '../mailer/outbox-mailer.js'

const { mailgun, t } = appPerTest({
  timeoutMs: 500,
  reply: () => ({
    status: 200,
    body: '{"id":"<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>",  "message":"Queued. Thank you."}\n',
  }),
})

const ada = { email: 'ada@example.com', name: 'Ada Lovelace' }

describe('POST /sendmail', () => {
  it('sends Mailgun the message to the letter: path, Basic auth, multipart fields', async () => {
    await sendMail(t.app, ada)
    expect(mailgun.requests).toEqual([
      {
        method: 'POST',
        path: '/v3/mg.example.com/messages',
        authorization: `Basic ${Buffer.from(`api:${mailgunSecret}`).toString('base64')}`,
        contentType: expect.stringMatching(/^multipart\/form-data; boundary=/),
        fields: [
          ['from', 'Movies <no-reply@mg.example.com>'],
          ['to', 'ada@example.com'],
          ['subject', 'Hello from the movies app'],
          ['text', 'Hello Ada Lovelace, thank you for getting in touch.'],
        ],
      },
    ])
  })

  it("answers 201 with the provider's body byte for byte", async () => {
    const response = await sendMail(t.app, ada)
    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.text()).toBe(typeof mailgun.reply === 'string' ? '' : mailgun.reply.body)
  })

  it('logs {email, name, output} with an _id to the mail log', async () => {
    await sendMail(t.app, ada)
    expect(await t.mailLog.list({ limit: 10 })).toEqual([
      {
        ...ada,
        output: {
          id: '<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>',
          message: 'Queued. Thank you.',
        },
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      },
    ])
  })

  it.each([
    {
      status: 400,
      body: '{"message":"to parameter is not a valid address"}',
      error: 'Bad Request',
    },
    { status: 401, body: 'Forbidden', contentType: 'text/plain', error: 'Unauthorized' },
    { status: 429, body: '{"message":"Too many"}', error: 'Too Many Requests' },
    { status: 500, body: '{"message":"oops"}', error: 'Internal Server Error' },
    { status: 429, statusText: 'Slow Down', body: '', error: 'Slow Down' },
  ])(
    'passes a provider $status on with its status text "$error" and logs nothing',
    async (reply) => {
      mailgun.reply = reply
      const response = await sendMail(t.app, ada)
      expect(response.status).toBe(reply.status)
      expect(await response.json()).toEqual({ error: reply.error })
      expect(await t.mailLog.list({ limit: 10 })).toEqual([])
    },
  )

  it('answers 504 in time when the provider never answers', async () => {
    mailgun.reply = 'hang'
    const started = Date.now()
    const response = await sendMail(t.app, ada)
    expect(response.status).toBe(504)
    expect(await response.json()).toEqual({ error: 'the mail provider did not answer in time' })
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(await t.mailLog.list({ limit: 10 })).toEqual([])
  })

  it('answers 502 when nothing listens at the provider address', async () => {
    const closed = await testApp({ mailgunUrl: await closedPortUrl() })
    const response = await sendMail(closed.app, ada)
    expect(response.status).toBe(502)
    expect(await response.json()).toEqual({ error: 'the mail provider could not be reached' })
    expect(await closed.mailLog.list({ limit: 10 })).toEqual([])
    await closed.cleanup()
  })

  it('answers 202 and logs the send when the provider says 200 but sends no JSON object', async () => {
    mailgun.reply = { status: 200, body: '<html>maintenance</html>', contentType: 'text/html' }
    const response = await sendMail(t.app, ada)
    expect(response.status).toBe(202)
    expect(await t.mailLog.list({ limit: 10 })).toEqual([
      expect.objectContaining({
        output: { status: 200, unreadable: 'its answer is not a JSON object' },
      }),
    ])
  })

  it('accepts the longest allowed name and address', async () => {
    const name = `${'é'.repeat(99)}🎬`
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`
    expect(email).toHaveLength(254)
    const response = await sendMail(t.app, { email, name })
    expect(response.status).toBe(201)
    expect(mailgun.requests[0]?.fields).toContainEqual(['to', email])
    expect(mailgun.requests[0]?.fields).toContainEqual([
      'text',
      template.text.replace('{name}', name),
    ])
  })

  it('never puts MAIL_APIKEY in an answer or a log line', async () => {
    const seen: string[] = []
    const record = async (response: Response) => {
      seen.push(await response.text(), JSON.stringify([...response.headers]))
    }
    await record(await sendMail(t.app, ada))
    for (const reply of [
      { status: 401, body: 'Forbidden' },
      { status: 500, body: mailgunSecret },
    ]) {
      mailgun.reply = reply
      await record(await sendMail(t.app, ada))
    }
    mailgun.reply = 'hang'
    await record(await sendMail(t.app, ada))
    await record(await sendMail(t.app, { email: mailgunSecret, name: 'x' }, { 'x-apikey': 'no' }))
    await record(await t.app.request('/maillog', { headers: { 'x-apikey': apiKey } }))
    const encoded = Buffer.from(`api:${mailgunSecret}`).toString('base64')
    expect(t.logs.length).toBeGreaterThan(5)
    for (const text of [...seen, ...t.logs]) {
      expect(text).not.toContain(mailgunSecret)
      expect(text).not.toContain(encoded)
    }
  })
})

describe('POST /sendmail when the outbox cannot keep the message', () => {
  it.each([
    {
      status: 503,
      refusal: new Error('the store could not write'),
      error: 'the outbox is unavailable',
    },
    { status: 507, refusal: new StoreFullError(), error: 'no space left for the outbox' },
  ])(
    'answers $status "$error", logs nothing, and frees the key and the count',
    async ({ refusal, status, error }) => {
      const kept = new MemoryMailLog<OutboxMessage>()
      const keep = kept.insert.bind(kept)
      let refusing: Error | undefined = refusal
      kept.insert = (message) => (refusing ? Promise.reject(refusing) : keep(message))
      const outbox = await testApp({
        mailer: new OutboxMailer(kept),
        rateLimits: { perRecipient: { count: 1, windowMs: 60_000 }, perKey: null },
      })
      const refused = await sendMail(outbox.app, ada, { 'idempotency-key': 'k' })
      expect(refused.status).toBe(status)
      expect(await refused.json()).toEqual({ error })
      expect(await outbox.mailLog.list({ limit: 10 })).toEqual([])
      refusing = undefined
      const retry = await sendMail(outbox.app, ada, { 'idempotency-key': 'k' })
      expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, null])
      await outbox.cleanup()
    },
  )
})
