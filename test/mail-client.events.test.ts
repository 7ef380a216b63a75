import {
  MailgunStandIn,
  mailgunFailure,
  mailgunSigningKey,
  signedMailgunEvent,
} from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailClient } from '../packages/mail-client/src/index.js'
import { startBuiltMicro } from './support/built-micro.js'
import type { MicroProcess } from './support/micro-process.js'

// The client reading a send's record and waiting for its final status, from its sources,
// against the built service sending through Mailgun's stand-in, its events signed as Mailgun's.
describe('@movies-and-mail/mail-client and the status of a send', () => {
  const apiKey = 'client-events-key'
  const messageId = '20260101120000.5f3c9a1b2d4e6f70@mg.example.com'
  let mailgun: MailgunStandIn
  let service: MicroProcess | undefined
  const url = () => service?.url ?? ''
  const post = (body: unknown) =>
    fetch(`${url()}/webhooks/mailgun`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    mailgun = await MailgunStandIn.start()
    service = await startBuiltMicro('mail-service', {
      API_KEYS: `${apiKey},other-mail-api-key`,
      MAIL_APIKEY: 'key-client-events',
      MAIL_DOMAIN: 'mg.example.com',
      MAIL_API_URL: mailgun.baseUrl,
      MAILGUN_WEBHOOK_SIGNING_KEY: mailgunSigningKey,
    })
  })
  afterAll(async () => {
    await service?.stop()
    await mailgun.stop()
  })

  it('reads the record a send made, then waits while it is deferred, until it failed', async () => {
    const mail = createMailClient(url(), { apiKey })
    const { answer, recordId } = await mail.sendTracked({ email: 'ada@example.com', name: 'Ada' })
    expect(answer.id).toBe(`<${messageId}>`)
    expect(recordId).toMatch(/^[0-9a-f]{24}$/)
    const id = recordId ?? ''
    expect(await mail.get(id)).toMatchObject({ _id: id, status: 'accepted', events: [] })

    const now = Date.now() / 1000
    expect(
      (
        await post(
          signedMailgunEvent(
            mailgunSigningKey,
            mailgunFailure('temporary', messageId, { at: now }),
          ),
        )
      ).status,
    ).toBe(200)
    const waiting = mail.waitForFinal(id, { deadlineMs: 20_000, everyMs: 100 })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const bounce = mailgunFailure('permanent', messageId, { at: now + 60 })
    expect((await post(signedMailgunEvent(mailgunSigningKey, bounce))).status).toBe(200)
    const final = await waiting
    expect(final.status).toBe('failed')
    expect(final.events.map(({ event, severity }) => [event, severity])).toEqual([
      ['failed', 'temporary'],
      ['failed', 'permanent'],
    ])
  })

  it('resolves at the deadline with the status it has then', async () => {
    const mail = createMailClient(url(), { apiKey })
    const id = '<20260101120001.77@mg.example.com>'
    mailgun.reply = { status: 200, body: JSON.stringify({ id, message: 'Queued. Thank you.' }) }
    const { recordId } = await mail.sendTracked({ email: 'bob@example.com', name: 'Bob' })
    const started = Date.now()
    const record = await mail.waitForFinal(recordId ?? '', { deadlineMs: 500, everyMs: 100 })
    expect(record.status).toBe('accepted')
    expect(Date.now() - started).toBeGreaterThanOrEqual(500)
  })

  it("rejects another key's record with the service's 404", async () => {
    const { recordId } = await createMailClient(url(), { apiKey }).sendTracked({
      email: 'cy@example.com',
      name: 'Cy',
    })
    const other = createMailClient(url(), { apiKey: 'other-mail-api-key' })
    await expect(other.get(recordId ?? '')).rejects.toMatchObject({
      status: 404,
      body: { error: 'no mail log record of this key has this id' },
    })
  })
})
