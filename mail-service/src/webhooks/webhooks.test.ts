import {
  mailgunEvent,
  mailgunSigningKey,
  mailgunToken,
  signedMailgunEvent,
} from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { appPerTest, postEvent, testApp } from '../../test/support/test-app.js'

const { t } = appPerTest()
const messageId = '20260101120000.5f3c9a1b2d4e6f70@mg.example.com'
const seconds = (offsetMs = 0) => String(Math.floor((Date.now() + offsetMs) / 1000))

/** Whether the event was filed before: a fresh, well-signed copy says `filed: false` then. */
async function filedBefore(eventData: ReturnType<typeof mailgunEvent>) {
  const response = await postEvent(t.app, signedMailgunEvent(mailgunSigningKey, eventData))
  expect(response.status).toBe(200)
  return !((await response.json()) as { filed: boolean }).filed
}

describe('POST /webhooks/mailgun', () => {
  it('files a signed event, without an x-apikey, and files Mailgun retrying it once', async () => {
    const body = signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', messageId))
    const first = await postEvent(t.app, body)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ filed: true })
    const retry = await postEvent(t.app, body)
    expect(retry.status).toBe(200)
    expect(await retry.json()).toEqual({ filed: false })
  })

  it('refuses a signature made with another key (401), filing nothing', async () => {
    const event = mailgunEvent('delivered', messageId)
    const response = await postEvent(t.app, signedMailgunEvent('key-someone-else', event))
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: "the signature is not Mailgun's" })
    expect(await filedBefore(event)).toBe(false)
  })

  it('refuses a signature that is not hex, too short, or of another timestamp (401)', async () => {
    const event = mailgunEvent('delivered', messageId)
    const good = signedMailgunEvent(mailgunSigningKey, event)
    const bad = [
      { ...good.signature, signature: 'zz'.repeat(32) },
      { ...good.signature, signature: good.signature.signature.slice(0, 62) },
      { ...good.signature, timestamp: String(Number(good.signature.timestamp) + 1) },
      { ...good.signature, token: mailgunToken() },
    ]
    for (const signature of bad) {
      const response = await postEvent(t.app, { ...good, signature })
      expect(response.status).toBe(401)
    }
    expect(await filedBefore(event)).toBe(false)
  })

  it('refuses a timestamp more than 15 minutes from now, either way (406); 14 minutes pass', async () => {
    for (const offsetMs of [-16 * 60_000, 16 * 60_000]) {
      const event = mailgunEvent('delivered', messageId)
      const body = signedMailgunEvent(mailgunSigningKey, event, { timestamp: seconds(offsetMs) })
      const response = await postEvent(t.app, body)
      expect(response.status).toBe(406)
      expect(await response.json()).toEqual({
        error: 'the signature timestamp is more than 15 minutes from now',
      })
      expect(await filedBefore(event)).toBe(false)
    }
    const body = signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', messageId), {
      timestamp: seconds(-14 * 60_000),
    })
    expect((await postEvent(t.app, body)).status).toBe(200)
  })

  it('refuses a captured signature replayed with another event (409), filing nothing', async () => {
    const captured = signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', messageId))
    expect((await postEvent(t.app, captured)).status).toBe(200)
    const forged = mailgunEvent('complained', messageId)
    const replayed = await postEvent(t.app, { ...captured, 'event-data': forged })
    expect(replayed.status).toBe(409)
    expect(await replayed.json()).toEqual({
      error: 'this signature token was used by another event',
    })
    expect(await filedBefore(forged)).toBe(false)
  })

  it('refuses a body that is not a Mailgun event (400), not JSON (415) or too large (413)', async () => {
    const notAnEvent = await postEvent(t.app, { signature: { timestamp: '1' } })
    expect(notAnEvent.status).toBe(400)
    expect(await notAnEvent.json()).toMatchObject({ error: 'invalid request body' })
    const form = await t.app.request('/webhooks/mailgun', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'timestamp=1&token=2&signature=3',
    })
    expect(form.status).toBe(415)
    const event = mailgunEvent('delivered', messageId)
    const large = signedMailgunEvent(mailgunSigningKey, { ...event, padding: 'x'.repeat(70_000) })
    expect((await postEvent(t.app, large)).status).toBe(413)
    expect(await filedBefore(event)).toBe(false)
  })

  it('takes a flood of forged events without filing one, then the real one', async () => {
    const event = mailgunEvent('complained', messageId)
    const forged = Array.from({ length: 200 }, () =>
      postEvent(t.app, signedMailgunEvent('key-forger', event)),
    )
    const statuses = (await Promise.all(forged)).map((response) => response.status)
    expect(new Set(statuses)).toEqual(new Set([401]))
    expect(await filedBefore(event)).toBe(false)
  })

  it('files one of 20 copies of an event arriving at once', async () => {
    const body = signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', messageId))
    const responses = await Promise.all(Array.from({ length: 20 }, () => postEvent(t.app, body)))
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200))
    const filed = await Promise.all(responses.map((response) => response.json()))
    expect(filed.filter((answer) => (answer as { filed: boolean }).filed)).toHaveLength(1)
  })

  it('is 404 without MAILGUN_WEBHOOK_SIGNING_KEY, whatever the body', async () => {
    const off = await testApp({ webhookSigningKey: undefined })
    try {
      const body = signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', messageId))
      const response = await postEvent(off.app, body)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({
        error: 'mail events are off: MAILGUN_WEBHOOK_SIGNING_KEY is not set',
      })
    } finally {
      await off.cleanup()
    }
  })
})
