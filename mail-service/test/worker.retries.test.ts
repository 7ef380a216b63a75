import { describe, expect, it, vi } from 'vitest'
import {
  accepted,
  ada,
  bindings,
  holdMailgunAnswer,
  mailgunBody,
  outbound,
  sendTo,
  statusesOf,
  useSharedWorker,
  workerForThisTest,
} from './support/worker-under-test.js'

const { mf, send } = useSharedWorker()

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
    const statuses = await statusesOf(mf(), ada, 3)
    const refused = await send(ada)
    expect([...statuses, refused.status]).toEqual([201, 201, 201, 429])
    // The first send leaves the hour-long window in about an hour.
    const retryAfter = refused.headers.get('retry-after')
    expect(retryAfter).toMatch(/^\d+$/)
    expect(Number(retryAfter)).toBeGreaterThan(1_100)
    expect(Number(retryAfter)).toBeLessThanOrEqual(1_200)
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await refused.json()).toEqual({ error: expect.stringContaining('recipient') })
    expect(outbound.toMailgun()).toHaveLength(3)
    expect(outbound.deta.items('maillog')).toHaveLength(3)
  })

  it('sends every time with RATE_LIMIT_PER_RECIPIENT=0', async () => {
    const unlimited = workerForThisTest({ ...bindings, RATE_LIMIT_PER_RECIPIENT: '0' })
    expect(await statusesOf(unlimited, ada, 4)).toEqual([201, 201, 201, 201])
    expect(outbound.toMailgun()).toHaveLength(4)
    // Only the API key's limit still counts: one bucket, no recipient's.
    const buckets = outbound.deta.items('sends').map(({ key }) => key)
    expect(buckets).toEqual([expect.stringMatching(/^key:/)])
  })
})
