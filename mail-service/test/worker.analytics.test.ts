import {
  closedPortUrl,
  consoleObjectsIn,
  type DataPoint,
  dataPointsIn,
  mailgunEvent,
  mailgunFailure,
  mailgunSigningKey,
  signedMailgunEvent,
  trickledPost,
} from '@movies-and-mail/test-kit'
import type { Miniflare } from 'miniflare'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ensureBuilt } from './support/run-server.js'
import {
  ada,
  bindings,
  holdMailgunResponse,
  outbound,
  sendTo,
  type WorkerOptions,
  warmedUp,
  workerForThisTest,
} from './support/worker-under-test.js'

// The mail Worker with a Workers Analytics Engine dataset bound as ANALYTICS (a stand-in that
// prints each data point): the points docs/operations.md "Monitoring" documents, field by field.

const { DETA_PROJECT_KEY: _, DETA_BASE_HOST: __, ...withoutDeta } = bindings
const apiKey = bindings.API_KEYS
const messageId = '20260101120000.abc123@mg.example.com'
let output = ''

beforeAll(() => ensureBuilt())
beforeEach(() => {
  outbound.reset()
  output = ''
})

/** The Worker with `settings` over the test's, its output kept in `output`. */
const mailWorker = (settings: Record<string, string> = {}, options: WorkerOptions = {}) =>
  warmedUp(
    workerForThisTest(
      { ...withoutDeta, MAILGUN_WEBHOOK_SIGNING_KEY: mailgunSigningKey, ...settings },
      { analytics: true, onOutput: (text) => (output += text), ...options },
    ),
  )

/** The data points of `kind` (blob1) printed so far, once there are `count` of them. */
async function pointsOf(kind: string, count: number): Promise<DataPoint[]> {
  const printed = () => dataPointsIn(output).filter((point) => point.blobs?.[0] === kind)
  await vi.waitFor(() => expect(printed()).toHaveLength(count))
  return printed()
}

const postEvent = (mf: Miniflare, body: unknown) =>
  mf.dispatchFetch('http://worker.test/webhooks/mailgun', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

/** A send's data point as the docs give it: blob2 the outcome, blob3 the limit or empty. */
const sendPoint = (outcome: string, limit = '') => ({
  indexes: ['send'],
  blobs: ['send', outcome, limit],
  doubles: [1],
})

describe("the mail Worker's Analytics Engine data points", () => {
  it('writes one per request: method, route template, status; the ms and the status', async () => {
    const mf = await mailWorker()
    const sent = await sendTo(mf, ada)
    expect(sent.status).toBe(201)
    const location = sent.headers.get('location') ?? ''
    const headers = { 'x-apikey': apiKey }
    const record = await mf.dispatchFetch(`http://worker.test${location}`, { headers })
    expect(record.status).toBe(200)
    const unkeyed = await mf.dispatchFetch('http://worker.test/maillog')
    expect(unkeyed.status).toBe(401)
    const missing = await mf.dispatchFetch('http://worker.test/no/such/path')
    expect(missing.status).toBe(404)

    const points = await pointsOf('request', 4)
    expect(points.map(({ indexes, blobs }) => ({ indexes, blobs }))).toEqual([
      { indexes: ['/sendmail'], blobs: ['request', 'POST', '/sendmail', '201'] },
      { indexes: ['/maillog/:id'], blobs: ['request', 'GET', '/maillog/:id', '200'] },
      { indexes: ['/maillog'], blobs: ['request', 'GET', '/maillog', '401'] },
      // No route matched: the route is empty, so unknown paths are one value.
      { indexes: [''], blobs: ['request', 'GET', '', '404'] },
    ])
    expect(points.map(({ doubles }) => doubles?.[1])).toEqual([201, 200, 401, 404])
    // double1 is the request's ms, as its log object says (which rounds it to 0.01 ms).
    const logged = consoleObjectsIn(output).filter((entry) => 'requestId' in entry)
    expect(logged.map((entry) => entry.status)).toEqual([201, 200, 401, 404])
    points.forEach(({ doubles }, at) => {
      expect(doubles).toHaveLength(2)
      expect(doubles?.[0]).toBeGreaterThanOrEqual(0)
      expect(doubles?.[0]).toBeCloseTo(Number(logged[at]?.durationMs), 1)
    })
    // Nothing of the caller's key, the address or the record's id in any point.
    const printed = JSON.stringify(dataPointsIn(output))
    for (const secret of [apiKey, ada.email, location.slice('/maillog/'.length)]) {
      expect(printed).not.toContain(secret)
    }
  })

  it('writes one for an answer given before the app runs: a late body, a Worker misconfigured', async () => {
    const slow = await mailWorker({ BODY_TIMEOUT_MS: '1000' })
    const { answer } = await trickledPost(String(await slow.ready), '/sendmail', '{"a":1}', {
      headers: { 'x-apikey': apiKey },
    })
    expect(answer?.status).toBe(408)
    const { API_KEYS: _keys, ...keyless } = withoutDeta
    const misconfigured = await warmedUp(
      workerForThisTest(keyless, { analytics: true, onOutput: (text) => (output += text) }),
    )
    expect((await misconfigured.dispatchFetch('http://worker.test/maillog')).status).toBe(503)
    // No route answered either: the route is empty, as for a path no route has.
    const points = await pointsOf('request', 2)
    expect(points.map(({ indexes, blobs }) => ({ indexes, blobs }))).toEqual([
      { indexes: [''], blobs: ['request', 'POST', '', '408'] },
      { indexes: [''], blobs: ['request', 'GET', '', '503'] },
    ])
    expect(points.map(({ doubles }) => doubles?.[1])).toEqual([408, 503])
    expect(points[0]?.doubles?.[0]).toBeGreaterThanOrEqual(1000)
    expect(consoleObjectsIn(output)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', path: '/sendmail', status: 408 }),
        expect.objectContaining({ method: 'GET', path: '/maillog', status: 503 }),
      ]),
    )
  })

  it('writes one per send by outcome: sent, replayed, rate_limited by limit, failed', async () => {
    const mf = await mailWorker({ RATE_LIMIT_PER_KEY: '6/1h' })
    const keyed = { 'idempotency-key': 'signup-4711' }
    const statuses = [
      (await sendTo(mf, ada, keyed)).status,
      (await sendTo(mf, ada, keyed)).status,
      (await sendTo(mf, ada)).status,
      (await sendTo(mf, ada)).status,
      // Three sends an hour to one recipient, by default: this one is refused.
      (await sendTo(mf, ada)).status,
    ]
    outbound.mailgunResponse = async () => new Response('{"message":"bad to"}', { status: 400 })
    statuses.push((await sendTo(mf, { ...ada, email: 'bob@example.com' })).status)
    // A refused send is given back to the limits: the key has 3 of its 6 left to take.
    outbound.mailgunResponse = async () => new Response('', { status: 200 })
    statuses.push((await sendTo(mf, { ...ada, email: 'carol@example.com' })).status)
    outbound.reset()
    for (const email of ['dan@example.com', 'eve@example.com', 'fay@example.com']) {
      statuses.push((await sendTo(mf, { ...ada, email })).status)
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429, 400, 202, 201, 201, 429])

    expect(await pointsOf('send', 10)).toEqual([
      sendPoint('sent'),
      sendPoint('replayed'),
      sendPoint('sent'),
      sendPoint('sent'),
      sendPoint('rate_limited', 'recipient'),
      sendPoint('failed'),
      // Taken by Mailgun, its answer unreadable: sent all the same.
      sendPoint('sent'),
      sendPoint('sent'),
      sendPoint('sent'),
      sendPoint('rate_limited', 'key'),
    ])
  })

  it('writes timed_out for a send Mailgun did not answer in time, not sent as it settles', async () => {
    const deta = {
      DETA_PROJECT_KEY: bindings.DETA_PROJECT_KEY,
      DETA_BASE_HOST: bindings.DETA_BASE_HOST,
    }
    const mf = await mailWorker(deta)
    const release = holdMailgunResponse()
    expect((await sendTo(mf, ada)).status).toBe(504)
    release()
    // Followed past its 504 (waitUntil), the send is logged once Mailgun answers.
    await vi.waitFor(() => expect(outbound.deta.items('maillog')).toHaveLength(1))
    expect(await pointsOf('send', 1)).toEqual([sendPoint('timed_out')])
    expect(await pointsOf('request', 1)).toEqual([
      expect.objectContaining({ blobs: ['request', 'POST', '/sendmail', '504'] }),
    ])
  })

  it('writes timed_out for a 502 of unknown outcome: the connection lost before any answer', async () => {
    const network = { network: { allow: ['private', 'local'] } }
    const mf = await mailWorker(
      { MAIL_API_URL: await closedPortUrl(), MAIL_TIMEOUT_MS: '3000' },
      { outboundService: network },
    )
    expect((await sendTo(mf, ada)).status).toBe(502)
    expect(await pointsOf('send', 1)).toEqual([sendPoint('timed_out')])
  })

  it('writes one per filed delivery event, by kind, and none for a copy or a forgery', async () => {
    const mf = await mailWorker()
    expect((await sendTo(mf, ada)).status).toBe(201)
    const seconds = Date.now() / 1000
    const events = [
      mailgunEvent('accepted', messageId, { at: seconds }),
      mailgunEvent('delivered', messageId, { at: seconds + 1 }),
      mailgunEvent('opened', messageId, { at: seconds + 2 }),
      mailgunFailure('permanent', messageId, { at: seconds + 3 }),
    ].map((data) => signedMailgunEvent(mailgunSigningKey, data))
    const filed = []
    for (const event of events) filed.push(await (await postEvent(mf, event)).json())
    expect(filed).toEqual(Array(4).fill({ filed: true }))
    expect(await (await postEvent(mf, events[1])).json()).toEqual({ filed: false })
    const forged = signedMailgunEvent('key-forger', mailgunEvent('clicked', messageId))
    expect((await postEvent(mf, forged)).status).toBe(401)

    expect(await pointsOf('delivery_event', 4)).toEqual(
      ['accepted', 'delivered', 'opened', 'failed'].map((kind) => ({
        indexes: ['delivery_event'],
        blobs: ['delivery_event', kind],
        doubles: [1],
      })),
    )
    const requests = await pointsOf('request', 7)
    expect(requests.map(({ blobs }) => blobs?.slice(2))).toEqual([
      ['/sendmail', '201'],
      ...Array(5).fill(['/webhooks/mailgun', '200']),
      ['/webhooks/mailgun', '401'],
    ])
  })
})

describe('the mail Worker without an ANALYTICS dataset', () => {
  it('sends, files events and logs each request as before', async () => {
    const mf = await mailWorker({}, { analytics: false })
    expect((await sendTo(mf, ada)).status).toBe(201)
    const event = signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', messageId))
    expect(await (await postEvent(mf, event)).json()).toEqual({ filed: true })
    await vi.waitFor(() =>
      expect(consoleObjectsIn(output).filter((entry) => 'requestId' in entry)).toEqual([
        expect.objectContaining({ route: '/sendmail', status: 201 }),
        expect.objectContaining({ route: '/webhooks/mailgun', status: 200 }),
      ]),
    )
    expect(output).not.toContain('mail-service cannot start')
  })
})
