import { closedPortUrl } from '@movies-and-mail/test-kit'
import { describe, expect, it, vi } from 'vitest'
import { appPerTest, sendMail, testApp } from '../../test/support/test-app.js'
import { outcomeUnknown } from './held-key.js'

const queued =
  '{"id":"<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>","message":"Queued. Thank you."}'
const ada = { email: 'ada@example.com', name: 'Ada Lovelace' }
const withKey = (key: string) => ({ 'idempotency-key': key })
const lost = 'the connection to the mail provider was lost before it answered'

const { mailgun, t } = appPerTest({
  timeoutMs: 5_000,
  reply: () => ({ status: 200, body: queued }),
})

describe('a connection to the provider lost once the request went out, before any answer', () => {
  it.each([
    ['reset (ECONNRESET)', 'reset' as const],
    ['closed ("other side closed")', 'close' as const],
  ])('%s: 502 of unknown outcome, the key kept: never sent again with it', async (_, reply) => {
    mailgun.reply = reply
    const first = await sendMail(t.app, ada, withKey('lost'))
    expect(first.status).toBe(502)
    expect(await first.json()).toEqual({ error: `${lost}; ${outcomeUnknown}` })
    mailgun.reply = { status: 200, body: queued }
    const soon = await sendMail(t.app, ada, withKey('lost'))
    expect(soon.status).toBe(409)
    // Once no request can still be in progress under it, the key says its outcome is unknown.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60_000 })
    try {
      const later = await sendMail(t.app, ada, withKey('lost'))
      expect([later.status, await later.json()]).toEqual([409, { error: outcomeUnknown }])
    } finally {
      vi.useRealTimers()
    }
    expect(mailgun.requests).toHaveLength(1)
    expect(await t.mailLog.list({ limit: 10 })).toEqual([])
  })

  it('counts it against the rate limits: it may have reached an inbox', async () => {
    const limited = await testApp({
      mailgunUrl: mailgun.baseUrl,
      rateLimits: { perRecipient: { count: 1, windowMs: 3_600_000 }, perKey: null },
    })
    mailgun.reply = 'reset'
    expect((await sendMail(limited.app, ada)).status).toBe(502)
    mailgun.reply = { status: 200, body: queued }
    expect((await sendMail(limited.app, ada)).status).toBe(429)
    await limited.cleanup()
  })

  it('answers it without a key as before: a new request sends again', async () => {
    mailgun.reply = 'reset'
    const first = await sendMail(t.app, ada)
    expect([first.status, await first.json()]).toEqual([502, { error: lost }])
    mailgun.reply = { status: 200, body: queued }
    expect((await sendMail(t.app, ada)).status).toBe(201)
    expect(mailgun.requests).toHaveLength(2)
  })
})

describe('a connection to the provider refused: nothing was sent', () => {
  it('answers 502 and frees the key: a retry with it is a new request', async () => {
    const closed = await testApp({ mailgunUrl: await closedPortUrl() })
    for (let attempt = 1; attempt <= 2; attempt++) {
      const response = await sendMail(closed.app, ada, withKey('refused'))
      expect([attempt, response.status, await response.json()]).toEqual([
        attempt,
        502,
        { error: 'the mail provider could not be reached' },
      ])
    }
    expect(await closed.mailLog.list({ limit: 10 })).toEqual([])
    await closed.cleanup()
  })
})
