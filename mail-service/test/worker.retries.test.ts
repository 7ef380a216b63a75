import { describe, expect, it, vi } from 'vitest'
import {
  accepted,
  ada,
  bindings,
  holdMailgunResponse,
  mailgunBody,
  outbound,
  sendTo,
  statusesOf,
  useWorker,
  warmedUp,
  workerForThisTest,
} from './support/worker-under-test.js'

// With DETA_PROJECT_KEY (as `bindings` have it) the mail log goes to the Deta Base, and the
// idempotency keys and send counts stay in the mail state object: the Base sees no base of theirs.
const { mf, send } = useWorker()

/** The Deta Base stand-in saw nothing of the keys or the counts. */
const noKeysOrCountsInTheBase = () => {
  expect(outbound.deta.requestsTo('idempotency')).toEqual([])
  expect(outbound.deta.requestsTo('sends')).toEqual([])
}

describe('the Worker with an Idempotency-Key, keys in the mail state object', () => {
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
    // The log went to the Base; the key did not.
    expect(outbound.deta.items('maillog')).toEqual([expect.objectContaining(ada)])
    noKeysOrCountsInTheBase()
  })

  it('refuses the key with another body: 422, nothing sent', async () => {
    expect((await send(ada, key)).status).toBe(201)
    const other = await send({ ...ada, name: 'Eve' }, key)
    expect(other.status).toBe(422)
    expect(await other.json()).toEqual({ error: expect.any(String) })
    expect(outbound.toMailgun()).toHaveLength(1)
  })

  it('frees the key when Mailgun refuses, so a retry with it sends', async () => {
    outbound.mailgunResponse = async () => new Response('oops', { status: 500 })
    expect((await send(ada, key)).status).toBe(500)
    outbound.mailgunResponse = accepted
    const retry = await send(ada, key)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBeNull()
    expect(outbound.toMailgun()).toHaveLength(2)
  })

  it('follows a send past its 504 (waitUntil) and replays its late 201 to a retry', async () => {
    const release = holdMailgunResponse()
    expect((await send(ada, key)).status).toBe(504)
    expect((await send(ada, key)).status).toBe(409)
    release()
    // Only work handed to waitUntil outlives the response: dropped, the key would stay unanswered
    // (409 until it is taken as abandoned).
    await vi.waitFor(async () => expect((await send(ada, key)).status).toBe(201), {
      timeout: 5_000,
    })
    const retry = await send(ada, key)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(await retry.text()).toBe(mailgunBody)
    expect(outbound.toMailgun()).toHaveLength(1)
    expect(outbound.deta.items('maillog')).toEqual([expect.objectContaining(ada)])
  })
})

describe('the Worker when Mailgun took the message but its answer cannot be read', () => {
  const key = { 'idempotency-key': 'signup-4712' }
  it.each([
    ['an empty body', async () => new Response('', { status: 200 }), 'its answer is empty'],
    [
      'invalid JSON',
      async () => new Response('{"id":', { status: 200 }),
      'its answer is not a JSON object',
    ],
  ])('%s: 202, logged, replayed to a retry, sent once', async (_, answer, why) => {
    outbound.mailgunResponse = answer
    const first = await send(ada, key)
    expect(first.status).toBe(202)
    const body = await first.text()
    expect(JSON.parse(body)).toEqual({
      message: `sent: the mail provider took the message (status 200), but ${why}`,
    })
    outbound.mailgunResponse = accepted
    const retry = await send(ada, key)
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([202, 'true'])
    expect(await retry.text()).toBe(body)
    expect(outbound.toMailgun()).toHaveLength(1)
    expect(outbound.deta.items('maillog')).toEqual([
      expect.objectContaining({ ...ada, output: { status: 200, unreadable: why } }),
    ])
  })

  it('takes a body that stalls after its headers as sent: the late 202 replayed to a retry', async () => {
    const patient = await warmedUp(workerForThisTest({ ...bindings, MAIL_GIVE_UP_MS: '700' }))
    outbound.mailgunResponse = async () => {
      const half = new TextEncoder().encode(mailgunBody.slice(0, 20))
      const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(half) })
      return new Response(stalled, { status: 200, headers: { 'content-type': 'application/json' } })
    }
    expect((await sendTo(patient, ada, key)).status).toBe(504)
    await vi.waitFor(async () => expect((await sendTo(patient, ada, key)).status).toBe(202), {
      timeout: 5_000,
    })
    const retry = await sendTo(patient, ada, key)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(await retry.json()).toEqual({
      message: 'sent: the mail provider took the message (status 200), but its answer stalled',
    })
    expect(outbound.toMailgun()).toHaveLength(1)
  })

  it('keeps the key of a send Mailgun never answered: 504, then 409, never sent again', async () => {
    const patient = await warmedUp(workerForThisTest({ ...bindings, MAIL_GIVE_UP_MS: '700' }))
    holdMailgunResponse()
    expect((await sendTo(patient, ada, key)).status).toBe(504)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    outbound.mailgunResponse = accepted
    const retry = await sendTo(patient, ada, key)
    expect(retry.status).toBe(409)
    expect(outbound.toMailgun()).toHaveLength(1)
    expect(outbound.deta.items('maillog')).toEqual([])
  })
})

describe("the Worker's rate limits, counted in the mail state object", () => {
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
    noKeysOrCountsInTheBase()
  })

  it('counts one inbox once however its domain is spelt: IDNA ASCII form, as on Node', async () => {
    const spellings = [
      'ada@münchen.de',
      'ADA@xn--mnchen-3ya.de',
      'ada+x@ｍünchen.de',
      'ada@MÜNCHEN.DE',
    ]
    const statuses = []
    for (const email of spellings) statuses.push((await send({ email, name: 'Ada' })).status)
    expect(statuses).toEqual([201, 201, 201, 429])
    expect(outbound.toMailgun()).toHaveLength(3)
  })

  it('sends every time with RATE_LIMIT_PER_RECIPIENT=0', async () => {
    const unlimited = await warmedUp(
      workerForThisTest({ ...bindings, RATE_LIMIT_PER_RECIPIENT: '0' }),
    )
    expect(await statusesOf(unlimited, ada, 4)).toEqual([201, 201, 201, 201])
    expect(outbound.toMailgun()).toHaveLength(4)
  })

  it('still counts the API key: its limit refuses past RATE_LIMIT_PER_KEY', async () => {
    const perKey = await warmedUp(
      workerForThisTest({ ...bindings, RATE_LIMIT_PER_RECIPIENT: '0', RATE_LIMIT_PER_KEY: '2/1m' }),
    )
    expect(await statusesOf(perKey, ada, 3)).toEqual([201, 201, 429])
    noKeysOrCountsInTheBase()
  })
})
