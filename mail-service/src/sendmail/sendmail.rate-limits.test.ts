import { describe, expect, it } from 'vitest'
import { apiKey, appPerTest, sendMail, testApp } from '../../test/support/test-app.js'

const queued = '{"id":"<1@mg.example.com>","message":"Queued. Thank you."}'
const to = (email: string) => ({ email, name: 'Ada' })
const delivered = () => mailgun.requests.map((request) => request.fields[1]?.[1])

const { mailgun, t } = appPerTest({
  reply: () => ({ status: 200, body: queued }),
  apiKeys: [apiKey, 'other-mail-api-key'],
  rateLimits: {
    perRecipient: { count: 3, windowMs: 3_600_000 },
    perKey: { count: 5, windowMs: 60_000 },
  },
})

describe('rate limits on POST /sendmail', () => {
  it('lets 3 mails an hour reach one address, then answers 429 with Retry-After', async () => {
    const statuses: number[] = []
    for (let n = 0; n < 4; n++) statuses.push((await sendMail(t.app, to('ada@example.com'))).status)
    expect(statuses).toEqual([201, 201, 201, 429])
    const refused = await sendMail(t.app, to('ada@example.com'))
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get('retry-after'))
    // Three fit at once; the next fits one interval (an hour / 3) after the first.
    expect(retryAfter).toBeGreaterThan(1_100)
    expect(retryAfter).toBeLessThanOrEqual(1_200)
    expect(await refused.json()).toEqual({
      error: `too many sends for this recipient; try again in ${retryAfter} s`,
    })
    expect(delivered()).toEqual(['ada@example.com', 'ada@example.com', 'ada@example.com'])
    expect(await t.mailLog.list({ limit: 10 })).toHaveLength(3)
  })

  it('counts one inbox once however its address is spelt: case and +tag', async () => {
    for (let n = 0; n < 3; n++) {
      expect((await sendMail(t.app, to('victim@gmail.com'))).status).toBe(201)
    }
    for (const email of [
      'victim@gmail.com',
      'Victim@gmail.com',
      'VICTIM@GMAIL.COM',
      'victim+1@gmail.com',
      'Victim+news+more@Gmail.com',
    ]) {
      const refused = await sendMail(t.app, to(email))
      expect([email, refused.status]).toEqual([email, 429])
      expect((await refused.json()).error).toMatch(/^too many sends for this recipient/)
    }
    expect(delivered()).toHaveLength(3)
  })

  it('counts one inbox once however its domain is spelt: IDNA ASCII form, full-width letters', async () => {
    const spellings = [
      'ada@münchen.de',
      'ada@xn--mnchen-3ya.de',
      'ADA@MÜNCHEN.DE',
      'ada@ｍünchen.de',
      'ada+x@Ｍünchen.de',
    ]
    const statuses = []
    for (const email of spellings) statuses.push((await sendMail(t.app, to(email))).status)
    expect(statuses).toEqual([201, 201, 201, 429, 429])
    expect(delivered()).toEqual(spellings.slice(0, 3))
    for (let n = 0; n < 3; n++) await sendMail(t.app, to(`bob+${n}@example.com`))
    expect((await sendMail(t.app, to('bob@ｅxample.com'))).status).toBe(429)
  })

  it('refuses a local part over 64 octets and a label over 63, naming the limit', async () => {
    const long = await sendMail(t.app, to(`${'a'.repeat(65)}@example.com`))
    expect(long.status).toBe(400)
    expect(await long.json()).toMatchObject({
      issues: [{ path: 'email', message: 'must have a local part of at most 64 octets' }],
    })
    const label = await sendMail(t.app, to(`ada@${'b'.repeat(64)}.com`))
    expect(label.status).toBe(400)
    expect(JSON.stringify(await label.json())).toMatch(/labels of at most 63/)
    expect((await sendMail(t.app, to(`${'a'.repeat(64)}@${'b'.repeat(63)}.com`))).status).toBe(201)
    expect(delivered()).toHaveLength(1)
  })

  it('counts an address with other dots as another inbox: only some providers ignore dots', async () => {
    for (let n = 0; n < 3; n++) await sendMail(t.app, to('victim@gmail.com'))
    expect((await sendMail(t.app, to('v.ictim@gmail.com'))).status).toBe(201)
  })

  it('delivers to the address as given, and logs it as given', async () => {
    expect((await sendMail(t.app, to('Ada+News@Example.com'))).status).toBe(201)
    expect(delivered()).toEqual(['Ada+News@Example.com'])
    const [logged] = await t.mailLog.list({ limit: 1 })
    expect(logged?.email).toBe('Ada+News@Example.com')
  })

  it('limits each API key on its own', async () => {
    for (let n = 0; n < 5; n++) {
      expect((await sendMail(t.app, to(`reader${n}@example.com`))).status).toBe(201)
    }
    const sixth = await sendMail(t.app, to('reader6@example.com'))
    expect(sixth.status).toBe(429)
    expect((await sixth.json()).error).toMatch(
      /^too many sends for this API key; try again in \d+ s$/,
    )
    const otherKey = await sendMail(t.app, to('reader6@example.com'), {
      'x-apikey': 'other-mail-api-key',
    })
    expect(otherKey.status).toBe(201)
  })

  it('does not count a replay of an idempotent request again', async () => {
    for (let n = 0; n < 5; n++) {
      const response = await sendMail(t.app, to('ada@example.com'), { 'idempotency-key': 'one' })
      expect(response.status).toBe(201)
    }
    expect(delivered()).toHaveLength(1)
    expect((await sendMail(t.app, to('ada@example.com'))).status).toBe(201)
    expect((await sendMail(t.app, to('ada@example.com'))).status).toBe(201)
  })

  it('frees the key of a refused idempotent request, so it can be retried later', async () => {
    for (let n = 0; n < 3; n++) await sendMail(t.app, to('ada@example.com'))
    const refused = await sendMail(t.app, to('ada@example.com'), { 'idempotency-key': 'late' })
    expect(refused.status).toBe(429)
    const again = await sendMail(t.app, to('ada@example.com'), { 'idempotency-key': 'late' })
    expect(again.status).toBe(429)
  })

  it('does not count sends the provider refused: they reached no inbox', async () => {
    mailgun.reply = { status: 500, statusText: 'Internal Server Error', body: '' }
    for (let n = 0; n < 4; n++)
      expect((await sendMail(t.app, to('ada@example.com'))).status).toBe(500)
    mailgun.reply = { status: 200, body: queued }
    for (let n = 0; n < 3; n++)
      expect((await sendMail(t.app, to('ada@example.com'))).status).toBe(201)
    expect((await sendMail(t.app, to('ada@example.com'))).status).toBe(429)
  })

  it('answers 503 in time when the send counter hangs, sending nothing', async () => {
    const hanging = await testApp({
      mailgunUrl: mailgun.baseUrl,
      clientTimeoutMs: 200,
      rateLimits: { perRecipient: { count: 3, windowMs: 60_000 }, perKey: null },
      counter: {
        take: () => new Promise(() => {}),
        giveBack: async () => {},
        prune: async () => 0,
        ping: async () => {},
      },
    })
    const started = Date.now()
    const response = await sendMail(hanging.app, to('ada@example.com'))
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ error: 'the send counter does not answer' })
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(mailgun.requests).toHaveLength(0)
    await hanging.cleanup()
  })

  it('holds under a burst: 10 simultaneous sends to one address deliver 3', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => sendMail(t.app, to('ada@example.com'))),
    ).then((responses) => responses.map((response) => response.status))
    expect(statuses.filter((status) => status === 201)).toHaveLength(3)
    expect(statuses.filter((status) => status === 429)).toHaveLength(7)
    expect(delivered()).toHaveLength(3)
  })
})

describe('rate limits turned off', () => {
  it('lets every send through', async () => {
    const open = await testApp({ mailgunUrl: mailgun.baseUrl })
    for (let n = 0; n < 6; n++)
      expect((await sendMail(open.app, to('ada@example.com'))).status).toBe(201)
    await open.cleanup()
  })
})
