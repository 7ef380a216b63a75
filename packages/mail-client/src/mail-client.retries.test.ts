import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { refusal, SendmailStandIn } from '../test/support/sendmail-stand-in.js'
import { MailApiError } from './mail-api-error.js'
import { createMailClient, type SendOptions } from './mail-client.js'

const ada = { email: 'ada@example.com', name: 'Ada' }
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** A client over a stand-in service whose requests meet `faults` first, and what it sent. */
function service(...faults: SendmailStandIn['faults']) {
  const api = new SendmailStandIn()
  api.faults.push(...faults)
  const mail = createMailClient('http://mail.test', {
    apiKey: 'mail-client-key-1',
    fetch: api.fetch,
  })
  /** A send, run to its end on the fake clock: resolves to its answer or its error. */
  const send = async (options?: SendOptions): Promise<{ answer?: unknown; error?: unknown }> => {
    const outcome = mail.send(ada, options).then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error }),
    )
    await vi.runAllTimersAsync()
    return outcome
  }
  return { api, mail, send }
}

describe('send, retried with one Idempotency-Key', () => {
  it('sends once when the first answer is lost: the retry gets the first answer', async () => {
    const { api, send } = service('lose-answer')
    const { answer } = await send()
    expect(answer).toEqual({ id: '<1@outbox.local>', message: 'Queued. Thank you.' })
    expect(api.outbox).toHaveLength(1)
    expect(api.requests).toHaveLength(2)
    const [first, retry] = api.requests
    expect(first?.headers['idempotency-key']).toMatch(uuid)
    expect(retry).toEqual({ ...first, at: retry?.at })
  })

  it('retries what never arrived, a 5xx and a 409 in progress, after a backoff with jitter', async () => {
    const { api, send } = service(
      'no-answer',
      refusal(502, 'the mail provider could not be reached'),
      refusal(504, 'the mail provider did not answer in time'),
      refusal(409, 'a request with this Idempotency-Key is in progress'),
    )
    const { answer } = await send()
    expect(answer).toMatchObject({ message: 'Queued. Thank you.' })
    expect(new Set(api.keys).size).toBe(1)
    expect(api.requests).toHaveLength(5)
    // 500 ms doubled each time, of which up to half is left out at random.
    const [first, second, third, fourth] = api.waits
    expect(first).toBeGreaterThanOrEqual(250)
    expect(first).toBeLessThanOrEqual(500)
    expect(second).toBeGreaterThanOrEqual(500)
    expect(second).toBeLessThanOrEqual(1000)
    expect(third).toBeGreaterThanOrEqual(1000)
    expect(third).toBeLessThanOrEqual(2000)
    expect(fourth).toBeGreaterThanOrEqual(2000)
    expect(fourth).toBeLessThanOrEqual(4000)
  })

  it('waits the Retry-After of a 429 or a 503, in seconds or as a date', async () => {
    // A whole second: an HTTP date has no milliseconds.
    vi.setSystemTime(new Date('2026-11-25T12:00:00Z'))
    const inTwoSeconds = () => new Date(Date.now() + 2000).toUTCString()
    const { api, send } = service(
      refusal(429, 'too many sends for this key; try again in 3 s', { 'retry-after': '3' }),
      () =>
        Response.json(
          { error: 'the send counter does not answer' },
          { status: 503, headers: { 'retry-after': inTwoSeconds() } },
        ),
    )
    await send()
    expect(api.waits).toEqual([3000, 2000])
    expect(new Set(api.keys).size).toBe(1)
  })

  it('retries a try with no answer within attemptTimeoutMs, cancelling it', async () => {
    const { api } = service('hang')
    let firstSignal: AbortSignal | undefined
    const fetch = api.fetch
    const timed = createMailClient('http://mail.test', {
      apiKey: 'mail-client-key-1',
      attemptTimeoutMs: 5000,
      fetch: (url, init) => {
        firstSignal ??= init.signal ?? undefined
        return fetch(url, init)
      },
    })
    const sent = timed.send(ada)
    await vi.runAllTimersAsync()
    await expect(sent).resolves.toMatchObject({ id: '<1@outbox.local>' })
    expect(firstSignal?.reason).toMatchObject({ name: 'TimeoutError' })
    expect(api.requests[1]?.at).toBeGreaterThanOrEqual(5250)
    expect(api.outbox).toHaveLength(1)
  })

  it('does not retry a refusal the same request would get again', async () => {
    for (const [status, error] of [
      [400, 'invalid request body'],
      [401, 'Unauthorized'],
      [413, 'request body is larger than 16384 bytes'],
      [422, 'this Idempotency-Key was used with another request body'],
    ] as const) {
      const { api, send } = service(refusal(status, error))
      const outcome = await send()
      expect(outcome).toEqual({ error: expect.any(MailApiError) })
      expect(outcome).toMatchObject({ error: { status, body: { error } } })
      expect(api.requests).toHaveLength(1)
    }
  })

  it('makes a new key for each send, and sends a given one as it is', async () => {
    const { api, send } = service()
    await send()
    await send()
    await send({ idempotencyKey: 'signup-4711' })
    const [first, second, given] = api.keys
    expect([first, second]).toEqual([expect.stringMatching(uuid), expect.stringMatching(uuid)])
    expect(first).not.toBe(second)
    expect(given).toBe('signup-4711')
  })

  it('refuses a key the service would not take, sending nothing', async () => {
    const { api, send } = service()
    for (const idempotencyKey of ['', 'é', 'a\nb', 'k'.repeat(256)]) {
      const { error } = (await send({ idempotencyKey })) as { error: MailApiError }
      expect(error).toBeInstanceOf(MailApiError)
      expect(error.status).toBe(0)
      expect(error.message).toMatch(/^cannot send the Idempotency-Key .*: it must be 1-255/)
    }
    expect(api.requests).toEqual([])
  })
})

describe('the bounds of the retries', () => {
  const unavailable = refusal(503, 'the outbox does not answer')

  it('tries maxAttempts times at most, then rejects with the last error', async () => {
    const { api, send } = service(...Array(10).fill(unavailable))
    const { error } = await send()
    expect(error).toMatchObject({ name: 'MailApiError', status: 503 })
    expect(api.requests).toHaveLength(5)
    const capped = service(...Array(10).fill(unavailable))
    await capped.send({ maxAttempts: 2 })
    expect(capped.api.requests).toHaveLength(2)
  })

  it('takes the client’s bounds, a call’s over them, an undefined one leaving them', async () => {
    const api = new SendmailStandIn()
    api.faults.push(...Array(20).fill(unavailable))
    const mail = createMailClient('http://mail.test', {
      apiKey: 'mail-client-key-0',
      fetch: api.fetch,
      maxAttempts: 3,
    })
    const tries = async (options?: SendOptions) => {
      const before = api.requests.length
      const sending = mail.send(ada, options).catch(() => {})
      await vi.runAllTimersAsync()
      await sending
      return api.requests.length - before
    }
    expect([
      await tries(),
      await tries({ maxAttempts: undefined }),
      await tries({ maxAttempts: 1 }),
    ]).toEqual([3, 3, 1])
  })

  it('rejects at once with the 429 whose Retry-After is past maxRetryWaitMs', async () => {
    const limited = refusal(429, 'too many sends for this recipient; try again in 1197 s', {
      'retry-after': '1197',
    })
    const { api, send } = service(limited)
    const started = Date.now()
    const { error } = await send()
    expect(error).toBeInstanceOf(MailApiError)
    expect(error).toMatchObject({ status: 429, retryAfterMs: 1_197_000 })
    expect(api.requests).toHaveLength(1)
    expect(Date.now() - started).toBe(0)
  })

  it('makes no retry whose wait would take the waits past maxRetryWaitMs', async () => {
    const soon = refusal(503, 'the send counter does not answer', { 'retry-after': '1' })
    const { api, send } = service(soon, soon, soon, soon)
    const { error } = await send({ maxRetryWaitMs: 2500 })
    expect(error).toMatchObject({ status: 503 })
    expect(api.waits).toEqual([1000, 1000])
  })

  it('rejects with the fetch’s own error when the last try gets no answer', async () => {
    const { send } = service('no-answer', 'no-answer')
    const { error } = await send({ maxAttempts: 2 })
    expect(error).toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ message: 'fetch failed' })
  })

  it('ends at once with the signal’s reason, during a try or a wait', async () => {
    const reason = new Error('the request that wanted the mail was cancelled')
    const during = service('hang')
    const controller = new AbortController()
    const sending = during.mail.send(ada, { signal: controller.signal })
    await vi.advanceTimersByTimeAsync(100)
    controller.abort(reason)
    await expect(sending).rejects.toBe(reason)

    const waiting = service(unavailable, unavailable)
    const second = new AbortController()
    const retrying = waiting.mail.send(ada, { signal: second.signal })
    await vi.advanceTimersByTimeAsync(100)
    second.abort(reason)
    await expect(retrying).rejects.toBe(reason)
    expect(waiting.api.requests).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)

    const before = service()
    const outcome = await before.send({ signal: AbortSignal.abort(reason) })
    expect(outcome).toEqual({ error: reason })
    expect(before.api.requests).toEqual([])
  })
})
