import { describe, expect, it, vi } from 'vitest'
import { apiKey, appPerTest, sendMail, testApp } from '../../test/support/test-app.js'
import { outcomeUnknown } from './held-key.js'

const queued =
  '{"id":"<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>","message":"Queued. Thank you."}'
const ada = { email: 'ada@example.com', name: 'Ada Lovelace' }
const withKey = (key: string) => ({ 'idempotency-key': key })

const { mailgun, t } = appPerTest({
  timeoutMs: 5_000,
  reply: () => ({ status: 200, body: queued }),
})

describe('POST /sendmail with an Idempotency-Key', () => {
  it('answers a repeat with the first answer, marked replayed, and sends once', async () => {
    const first = await sendMail(t.app, ada, withKey('signup-1'))
    const again = await sendMail(t.app, ada, withKey('signup-1'))
    expect([first.status, again.status]).toEqual([201, 201])
    expect(await again.text()).toBe(await first.text())
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(mailgun.requests).toHaveLength(1)
  })

  it('treats the same body with other spacing or field order as a repeat', async () => {
    await sendMail(t.app, ada, withKey('k'))
    const reordered = `{ "name": "${ada.name}",\n "email": "${ada.email}" }`
    expect(
      (await sendMail(t.app, reordered, withKey('k'))).headers.get('idempotent-replayed'),
    ).toBe('true')
    expect(mailgun.requests).toHaveLength(1)
  })

  it('refuses the same key with another body: 422, nothing sent', async () => {
    await sendMail(t.app, ada, withKey('k'))
    const other = await sendMail(t.app, { ...ada, name: 'Ada King' }, withKey('k'))
    expect(other.status).toBe(422)
    expect(await other.json()).toEqual({
      error: 'this Idempotency-Key was used with another request body',
    })
    expect(mailgun.requests).toHaveLength(1)
  })

  it('refuses the same key while the first request is in progress: 409, nothing sent', async () => {
    mailgun.reply = { status: 200, body: queued, delayMs: 300 }
    const [first, second] = await Promise.all([
      sendMail(t.app, ada, withKey('k')),
      new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        sendMail(t.app, ada, withKey('k')),
      ),
    ])
    expect(first.status).toBe(201)
    expect(second.status).toBe(409)
    expect(await second.json()).toEqual({
      error: 'a request with this Idempotency-Key is in progress',
    })
    expect(mailgun.requests).toHaveLength(1)
  })

  it('frees the key when the provider answered an error, so a retry sends', async () => {
    mailgun.reply = { status: 503, statusText: 'Service Unavailable', body: '' }
    expect((await sendMail(t.app, ada, withKey('k'))).status).toBe(503)
    mailgun.reply = { status: 200, body: queued }
    const retry = await sendMail(t.app, ada, withKey('k'))
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBeNull()
    expect(mailgun.requests).toHaveLength(2)
  })

  it('keeps one caller\u2019s keys apart from another\u2019s', async () => {
    const other = await testApp({
      mailgunUrl: mailgun.baseUrl,
      apiKeys: [apiKey, 'second-mail-api-key'],
    })
    await sendMail(other.app, ada, withKey('k'))
    const second = await sendMail(other.app, ada, {
      ...withKey('k'),
      'x-apikey': 'second-mail-api-key',
    })
    expect(second.headers.get('idempotent-replayed')).toBeNull()
    expect(mailgun.requests).toHaveLength(2)
    await other.cleanup()
  })

  it("answers another API key's use of the same Idempotency-Key as a request of its own", async () => {
    const outbox = await testApp({ apiKeys: [apiKey, 'second-mail-api-key', 'third-mail-api-key'] })
    const as = (key: string) => ({ ...withKey('k'), 'x-apikey': key })
    const first = await sendMail(outbox.app, ada, withKey('k'))
    const sameBody = await sendMail(outbox.app, ada, as('second-mail-api-key'))
    const otherBody = await sendMail(
      outbox.app,
      { ...ada, name: 'Ada King' },
      as('third-mail-api-key'),
    )
    expect([first.status, sameBody.status, otherBody.status]).toEqual([201, 201, 201])
    expect(sameBody.headers.get('idempotent-replayed')).toBeNull()
    const [mine, theirs] = [(await first.json()).id, (await sameBody.json()).id]
    expect(theirs).not.toBe(mine)
    // The second key's own repeat is its own first response again, never the first key's.
    const repeat = await sendMail(outbox.app, ada, as('second-mail-api-key'))
    expect(repeat.headers.get('idempotent-replayed')).toBe('true')
    expect((await repeat.json()).id).toBe(theirs)
    await outbox.cleanup()
  })

  it.each([
    ['an empty key', ''],
    ['a key of 256 characters', 'k'.repeat(256)],
    ['a key with a control character', 'a\u0001b'],
  ])('refuses %s with 400 and sends nothing', async (_, key) => {
    const response = await sendMail(t.app, ada, withKey(key))
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: 'invalid header' })
    expect(mailgun.requests).toHaveLength(0)
  })

  it('leaves requests without a key as they were: every one sends', async () => {
    await sendMail(t.app, ada)
    await sendMail(t.app, ada)
    expect(mailgun.requests).toHaveLength(2)
  })
})

describe('a provider slower than MAIL_TIMEOUT_MS', () => {
  it('answers 504, keeps following the send, and replays its late 201 to a retry', async () => {
    const slow = await testApp({
      mailgunUrl: mailgun.baseUrl,
      timeoutMs: 5_000,
      clientTimeoutMs: 200,
    })
    mailgun.reply = { status: 200, body: queued, delayMs: 600 }
    const first = await sendMail(slow.app, ada, withKey('late-1'))
    expect(first.status).toBe(504)
    const meanwhile = await sendMail(slow.app, ada, withKey('late-1'))
    expect(meanwhile.status).toBe(409)
    await slow.background.settled()
    const retry = await sendMail(slow.app, ada, withKey('late-1'))
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(await retry.text()).toBe(queued)
    expect(mailgun.requests).toHaveLength(1)
    const logged = await slow.mailLog.list({ limit: 10 })
    expect(logged).toEqual([expect.objectContaining({ email: ada.email, name: ada.name })])
    await slow.cleanup()
  })

  it('keeps the key when the provider never answers within MAIL_GIVE_UP_MS: never sent again', async () => {
    const slow = await testApp({
      mailgunUrl: mailgun.baseUrl,
      timeoutMs: 400,
      giveUpMs: 400,
      clientTimeoutMs: 100,
    })
    mailgun.reply = 'hang'
    expect((await sendMail(slow.app, ada, withKey('gone'))).status).toBe(504)
    await slow.background.settled()
    mailgun.reply = { status: 200, body: queued }
    const soon = await sendMail(slow.app, ada, withKey('gone'))
    expect([soon.status, soon.headers.get('retry-after')]).toEqual([409, '1'])
    // Once no request can still be in progress under it, the key says its outcome is unknown.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60_000 })
    try {
      const later = await sendMail(slow.app, ada, withKey('gone'))
      expect(later.status).toBe(409)
      expect(await later.json()).toEqual({ error: outcomeUnknown })
    } finally {
      vi.useRealTimers()
    }
    expect(mailgun.requests).toHaveLength(1)
    expect(await slow.mailLog.list({ limit: 10 })).toEqual([])
    await slow.cleanup()
  })

  it('answers 504 naming the unknown outcome when the client waits as long as the send', async () => {
    const slow = await testApp({ mailgunUrl: mailgun.baseUrl, timeoutMs: 200, giveUpMs: 200 })
    mailgun.reply = 'hang'
    const first = await sendMail(slow.app, ada, withKey('gone'))
    expect(first.status).toBe(504)
    expect((await first.json()).error).toContain('it is not sent again with this key')
    expect((await sendMail(slow.app, ada, withKey('gone'))).status).toBe(409)
    expect(mailgun.requests).toHaveLength(1)
    await slow.cleanup()
  })

  it('sends again without a key, as before: nothing holds it', async () => {
    const slow = await testApp({ mailgunUrl: mailgun.baseUrl, timeoutMs: 200, giveUpMs: 200 })
    mailgun.reply = 'hang'
    expect((await sendMail(slow.app, ada)).status).toBe(504)
    mailgun.reply = { status: 200, body: queued }
    expect((await sendMail(slow.app, ada)).status).toBe(201)
    expect(mailgun.requests).toHaveLength(2)
    await slow.cleanup()
  })
})

describe('a provider that took the message (2xx) but whose answer cannot be read', () => {
  it.each([
    ['invalid JSON', { status: 200, body: '{"id": <1@x>' }, 'its answer is not a JSON object'],
    ['an empty body', { status: 200, body: '' }, 'its answer is empty'],
    ['an array', { status: 200, body: '[]' }, 'its answer is not a JSON object'],
    ['a string', { status: 200, body: '"Queued"' }, 'its answer is not a JSON object'],
    [
      'a connection cut after its headers',
      { status: 200, body: queued, cutAfterHeaders: true as const },
      'its answer was cut off',
    ],
  ])(
    '%s: 202, logged as sent, the key completed and replayed, sent once',
    async (_, reply, why) => {
      mailgun.reply = reply
      const first = await sendMail(t.app, ada, withKey('taken'))
      const message = `sent: the mail provider took the message (status 200), but ${why}`
      expect(first.status).toBe(202)
      expect(await first.json()).toEqual({ message })
      const logged = await t.mailLog.list({ limit: 10 })
      expect(logged).toEqual([
        expect.objectContaining({ ...ada, output: { status: 200, unreadable: why } }),
      ])
      mailgun.reply = { status: 200, body: queued }
      const retry = await sendMail(t.app, ada, withKey('taken'))
      expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([202, 'true'])
      expect(await retry.json()).toEqual({ message })
      expect(mailgun.requests).toHaveLength(1)
      expect(await t.mailLog.list({ limit: 10 })).toHaveLength(1)
    },
  )

  it('counts it against the rate limits: it reached an inbox', async () => {
    const limited = await testApp({
      mailgunUrl: mailgun.baseUrl,
      rateLimits: { perRecipient: { count: 1, windowMs: 3_600_000 }, perKey: null },
    })
    mailgun.reply = { status: 200, body: '' }
    expect((await sendMail(limited.app, ada)).status).toBe(202)
    expect((await sendMail(limited.app, ada)).status).toBe(429)
    await limited.cleanup()
  })
})
