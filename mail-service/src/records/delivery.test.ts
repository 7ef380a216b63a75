import { readFile } from 'node:fs/promises'
import {
  type MailgunEventData,
  mailgunEvent,
  mailgunFailure,
  mailgunSigningKey,
  signedMailgunEvent,
} from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { apiKey, appPerTest, postEvent, sendMail, testApp } from '../../test/support/test-app.js'

const otherKey = 'other-mail-key-5Tz'
const adminKey = 'admin-mail-key-2Qx'
const { mailgun, t } = appPerTest({
  apiKeys: [apiKey, otherKey, adminKey],
  adminApiKeys: [adminKey],
})
const ada = { email: 'ada@example.com', name: 'Ada' }
let sends = 0

/** Sends a mail Mailgun answers with a message id of its own; its id and record's address. */
async function send(key = apiKey) {
  const messageId = `20260101120000.${++sends}${Date.now()}@mg.example.com`
  mailgun.reply = {
    status: 200,
    body: JSON.stringify({ id: `<${messageId}>`, message: 'Queued. Thank you.' }),
  }
  const response = await sendMail(t.app, ada, { 'x-apikey': key })
  expect(response.status).toBe(201)
  return {
    messageId,
    location: response.headers.get('location') ?? '',
    body: await response.json(),
  }
}

const deliver = async (data: MailgunEventData) => {
  const response = await postEvent(t.app, signedMailgunEvent(mailgunSigningKey, data))
  expect(response.status).toBe(200)
}
const read = async (location: string, key = apiKey) => {
  const response = await t.app.request(location, { headers: { 'x-apikey': key } })
  return { status: response.status, record: (await response.json()) as Record<string, unknown> }
}
const now = Date.now() / 1000

describe('a send and its events', () => {
  it('names its record in Location, its body unchanged, the record accepted and with no event', async () => {
    const { location, body, messageId } = await send()
    expect(location).toMatch(/^\/maillog\/[0-9a-f]{24}$/)
    expect(body).toEqual({ id: `<${messageId}>`, message: 'Queued. Thank you.' })
    const { status, record } = await read(location)
    expect(status).toBe(200)
    expect(record).toMatchObject({
      _id: location.slice(9),
      email: 'ada@example.com',
      status: 'accepted',
      events: [],
    })
  })

  it('follows the life of a send: accepted, deferred, delivered, opened (not a status)', async () => {
    const { location, messageId } = await send()
    await deliver(mailgunEvent('accepted', messageId, { at: now }))
    await deliver(mailgunFailure('temporary', messageId, { at: now + 1 }))
    expect((await read(location)).record.status).toBe('deferred')
    await deliver(mailgunEvent('delivered', messageId, { at: now + 60 }))
    await deliver(mailgunEvent('opened', messageId, { at: now + 120 }))
    const { record } = await read(location)
    expect(record.status).toBe('delivered')
    expect(record.events).toEqual([
      { event: 'accepted', at: new Date(now * 1000).toISOString() },
      {
        event: 'failed',
        at: new Date((now + 1) * 1000).toISOString(),
        severity: 'temporary',
        reason: 'generic',
        code: 452,
        description: 'Mailbox temporarily full',
      },
      { event: 'delivered', at: new Date((now + 60) * 1000).toISOString() },
      { event: 'opened', at: new Date((now + 120) * 1000).toISOString() },
    ])
  })

  it('never lets an older event arriving late override a newer one', async () => {
    const { location, messageId } = await send()
    await deliver(mailgunEvent('complained', messageId, { at: now + 300 }))
    await deliver(mailgunEvent('delivered', messageId, { at: now + 10 }))
    await deliver(mailgunEvent('accepted', messageId, { at: now }))
    const { record } = await read(location)
    expect(record.status).toBe('complained')
    expect((record.events as { event: string }[]).map((event) => event.event)).toEqual([
      'accepted',
      'delivered',
      'complained',
    ])
  })

  it('keeps an event that arrives before its send is logged, and shows it on the record', async () => {
    const messageId = `20260101120000.early${Date.now()}@mg.example.com`
    await deliver(mailgunEvent('accepted', messageId, { at: now }))
    mailgun.reply = {
      status: 200,
      body: JSON.stringify({ id: `<${messageId}>`, message: 'Queued. Thank you.' }),
    }
    const response = await sendMail(t.app, ada)
    const { record } = await read(response.headers.get('location') ?? '')
    expect(record.events).toEqual([{ event: 'accepted', at: new Date(now * 1000).toISOString() }])
  })

  it('files an event of a message never sent on no record, and answers it 200', async () => {
    const { location } = await send()
    await deliver(mailgunFailure('permanent', 'never-sent@mg.example.com'))
    const listed = await t.app.request('/maillog?status=failed', {
      headers: { 'x-apikey': apiKey },
    })
    expect(await listed.json()).toEqual([])
    expect((await read(location)).record.events).toEqual([])
  })

  it('shows a record to the key that sent it and to an admin key; 404 to another key', async () => {
    const { location } = await send()
    expect((await read(location)).status).toBe(200)
    expect((await read(location, adminKey)).status).toBe(200)
    const other = await read(location, otherKey)
    expect(other).toEqual({
      status: 404,
      record: { error: 'no mail log record of this key has this id' },
    })
  })

  it('lists each record with its status, and finds the bounces with ?status=failed', async () => {
    const bounced = await send()
    const fine = await send()
    await deliver(mailgunFailure('permanent', bounced.messageId))
    await deliver(mailgunEvent('delivered', fine.messageId))
    const all = await t.app.request('/maillog', { headers: { 'x-apikey': apiKey } })
    const statuses = ((await all.json()) as { _id: string; status: string }[]).map((r) => r.status)
    expect(statuses).toEqual(['delivered', 'failed'])
    const failed = await t.app.request('/maillog?status=failed', {
      headers: { 'x-apikey': apiKey },
    })
    const records = (await failed.json()) as { _id: string }[]
    expect(records.map((record) => `/maillog/${record._id}`)).toEqual([bounced.location])
  })

  it("files each event of Mailgun's published payloads as they say", async () => {
    const fixture = JSON.parse(
      await readFile(new URL('../../test/fixtures/mailgun-payloads.json', import.meta.url), 'utf8'),
    ) as { messageId: string; events: MailgunEventData[]; bounce: MailgunEventData }
    mailgun.reply = {
      status: 200,
      body: JSON.stringify({ id: `<${fixture.messageId}>`, message: 'Queued. Thank you.' }),
    }
    const sent = await sendMail(t.app, ada)
    for (const event of [...fixture.events].reverse()) await deliver(event)
    const { record } = await read(sent.headers.get('location') ?? '')
    expect(record.status).toBe('complained')
    expect(record.events).toEqual([
      { event: 'accepted', at: '2026-02-03T19:19:58.373Z' },
      {
        event: 'failed',
        at: '2026-02-03T19:20:10.531Z',
        severity: 'temporary',
        reason: 'generic',
        code: 452,
        description: '4.2.2 The email account that you tried to reach is over quota.',
      },
      { event: 'delivered', at: '2026-02-03T19:20:31.659Z' },
      { event: 'opened', at: '2026-02-03T19:21:52.331Z' },
      { event: 'complained', at: '2026-02-03T19:23:20.252Z' },
    ])
    expect(JSON.stringify(record)).not.toMatch(
      /"account"|"storage"|1234567890303a4bd1f33898|50\.56/,
    )
  })
})

describe('in outbox mode', () => {
  it('says whether its status can move: Mail-Events on with the signing key, off without', async () => {
    const { location } = await send()
    const on = await t.app.request(location, { headers: { 'x-apikey': apiKey } })
    expect(on.headers.get('mail-events')).toBe('on')
    const off = await testApp({
      mailgunUrl: mailgun.baseUrl,
      webhookSigningKey: undefined,
      events: undefined,
    })
    try {
      const response = await sendMail(off.app, ada)
      const record = await off.app.request(response.headers.get('location') ?? '', {
        headers: { 'x-apikey': apiKey },
      })
      expect([record.headers.get('mail-events'), (await record.json()).status]).toEqual([
        'off',
        'accepted',
      ])
    } finally {
      await off.cleanup()
    }
  })

  it('says the mail was kept in the outbox, not delivered', async () => {
    const outboxed = await testApp()
    try {
      const response = await sendMail(outboxed.app, ada)
      const location = response.headers.get('location') ?? ''
      const record = await outboxed.app.request(location, { headers: { 'x-apikey': apiKey } })
      expect(await record.json()).toMatchObject({ status: 'outbox', events: [] })
    } finally {
      await outboxed.cleanup()
    }
  })
})
