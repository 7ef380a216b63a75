import {
  mailgunEvent,
  mailgunFailure,
  mailgunSigningKey,
  signedMailgunEvent,
} from '@movies-and-mail/test-kit'
import type { Miniflare } from 'miniflare'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ensureBuilt } from './support/run-server.js'
import {
  ada,
  bindings,
  outbound,
  sendTo,
  warmedUp,
  workerForThisTest,
} from './support/worker-under-test.js'

// Mailgun's signed events on the Workers runtime: checked with workerd's Web Crypto, filed in
// the Durable Object, shown on the send's record.

const { DETA_PROJECT_KEY: _, DETA_BASE_HOST: __, ...withoutDeta } = bindings
const messageId = '20260101120000.abc123@mg.example.com'
const seconds = Date.now() / 1000

beforeAll(() => ensureBuilt())
beforeEach(() => outbound.reset())

const post = (worker: Miniflare, body: unknown) =>
  worker.dispatchFetch('http://worker.test/webhooks/mailgun', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const signed = (data: ReturnType<typeof mailgunEvent>) =>
  signedMailgunEvent(mailgunSigningKey, data)

describe('the Worker and Mailgun events', () => {
  it('files signed events with the send, in their own order, and refuses every forgery', async () => {
    const worker = await warmedUp(
      workerForThisTest({ ...withoutDeta, MAILGUN_WEBHOOK_SIGNING_KEY: mailgunSigningKey }),
    )
    const sent = await sendTo(worker, ada)
    expect(sent.status).toBe(201)
    const location = sent.headers.get('location') ?? ''
    expect(location).toMatch(/^\/maillog\/[0-9a-f]{24}$/)

    const bounce = signed(mailgunFailure('permanent', messageId, { at: seconds + 5 }))
    const copies = await Promise.all(Array.from({ length: 20 }, () => post(worker, bounce)))
    expect(copies.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    const filed = await Promise.all(copies.map((answer) => answer.json()))
    expect(filed.filter((answer) => (answer as { filed: boolean }).filed)).toHaveLength(1)
    expect(
      (await post(worker, signed(mailgunEvent('accepted', messageId, { at: seconds })))).status,
    ).toBe(200)

    const forged = signedMailgunEvent('key-forger', mailgunEvent('delivered', messageId))
    expect((await post(worker, forged)).status).toBe(401)
    const replayed = { ...bounce, 'event-data': mailgunEvent('delivered', messageId) }
    expect((await post(worker, replayed)).status).toBe(409)
    const stale = signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', messageId), {
      timestamp: String(Math.floor(seconds) - 3600),
    })
    expect((await post(worker, stale)).status).toBe(406)

    const record = await worker.dispatchFetch(`http://worker.test${location}`, {
      headers: { 'x-apikey': 'worker-mail-api-key' },
    })
    expect(await record.json()).toMatchObject({
      status: 'failed',
      events: [
        { event: 'accepted' },
        { event: 'failed', severity: 'permanent', reason: 'bounce', code: 550 },
      ],
    })
  })

  it('answers 404 without MAILGUN_WEBHOOK_SIGNING_KEY', async () => {
    const worker = await warmedUp(workerForThisTest(withoutDeta))
    const response = await post(worker, signed(mailgunEvent('delivered', messageId)))
    expect(response.status).toBe(404)
  })
})
