import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailClient, type Fetch, MailApiError } from '../packages/mail-client/src/index.js'
import { startBuiltMicro } from './support/built-micro.js'
import type { MicroProcess } from './support/micro-process.js'
import { outbox } from './support/outbox.js'

// The client, from its sources, against the built service in outbox mode.
describe('@movies-and-mail/mail-client against the built mail-service', () => {
  const apiKey = 'client-test-api-key'
  let service: MicroProcess | undefined
  const url = () => service?.url ?? ''

  beforeAll(async () => {
    service = await startBuiltMicro('mail-service', {
      API_KEYS: apiKey,
      MAIL_TRANSPORT: 'outbox',
      RATE_LIMIT_PER_RECIPIENT: '1/1h',
    })
  })
  afterAll(() => service?.stop())

  it('sends once a mail whose answer was lost, and resolves to its answer', async () => {
    const lost: string[] = []
    const lossy: Fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (lost.length > 0) return response
      lost.push(`${response.status} ${await response.text()}`)
      throw new TypeError('fetch failed: other side closed')
    }
    const mail = createMailClient(url(), { apiKey, fetch: lossy })
    const answer = await mail.send({ email: 'lost@example.com', name: 'Lost' })
    expect(lost).toEqual([`201 ${JSON.stringify(answer)}`])
    expect(answer).toEqual({
      id: expect.stringMatching(/@outbox\.local>$/),
      message: expect.any(String),
    })
    const kept = (await outbox(url(), apiKey)).filter(({ to }) => to === 'lost@example.com')
    expect(kept).toHaveLength(1)
    const { records } = await mail.log({ limit: 10 })
    expect(records.filter(({ email }) => email === 'lost@example.com')).toHaveLength(1)
  })

  it('rejects at once with the 429 whose Retry-After is past what the caller would wait', async () => {
    const mail = createMailClient(url(), { apiKey })
    const ada = { email: 'ada@example.com', name: 'Ada' }
    await mail.send(ada)
    const started = Date.now()
    const error = await mail.send(ada).then(
      () => expect.unreachable('the rate limit was expected to refuse'),
      (caught: unknown) => caught,
    )
    expect(Date.now() - started).toBeLessThan(1000)
    expect(error).toBeInstanceOf(MailApiError)
    expect(error).toMatchObject({
      status: 429,
      body: { error: expect.stringContaining('too many sends for this recipient') },
      retryAfterMs: expect.any(Number),
    })
    expect((error as MailApiError).retryAfterMs).toBeGreaterThan(30_000)
    const kept = (await outbox(url(), apiKey)).filter(({ to }) => to === 'ada@example.com')
    expect(kept).toHaveLength(1)
  })

  it('does not retry a wrong key', async () => {
    const tries: string[] = []
    const counting: Fetch = (input, init) => {
      tries.push(input)
      return fetch(input, init)
    }
    const mail = createMailClient(url(), { apiKey: 'wrong', fetch: counting })
    await expect(mail.send({ email: 'eve@example.com', name: 'Eve' })).rejects.toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
    expect(tries).toHaveLength(1)
  })
})
