import { describe, expect, it } from 'vitest'
import { SendmailStandIn } from '../test/support/sendmail-stand-in.js'
import { MailApiError } from './mail-api-error.js'
import { createMailClient } from './mail-client.js'
import type { Fetch } from './request-headers.js'

const ada = { email: 'ada@example.com', name: 'Ada' }

/** A fetch that answers each request with `answer`, recording the requests. */
function answering(answer: () => Response) {
  const api = new SendmailStandIn()
  api.faults.push(...Array.from({ length: 10 }, () => answer))
  return api
}

/** What a call rejected with. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call was expected to fail'),
    (error: unknown) => error,
  )

describe('send', () => {
  it('posts the mail as JSON with the key, an Idempotency-Key and the given headers', async () => {
    const api = new SendmailStandIn()
    const mail = createMailClient('http://mail.test/api/', {
      apiKey: 'mail-client-key-1',
      fetch: api.fetch,
      headers: { 'x-request-id': 'trace-1', 'user-agent': 'my-app' },
    })
    await mail.send(ada, { headers: { 'x-request-id': 'trace-2' }, idempotencyKey: 'k-1' })
    expect(api.requests).toEqual([
      {
        at: expect.any(Number),
        method: 'POST',
        url: 'http://mail.test/api/sendmail',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': 'k-1',
          'user-agent': 'my-app',
          'x-apikey': 'mail-client-key-1',
          'x-request-id': 'trace-2',
        },
        body: ada,
      },
    ])
  })

  it('resolves to the provider’s answer as it came', async () => {
    const answer = { id: '<1@mg.example.com>', message: 'Queued. Thank you.', extra: [1] }
    const api = answering(() => Response.json(answer, { status: 201 }))
    const mail = createMailClient('http://mail.test', {
      apiKey: 'mail-client-key-1',
      fetch: api.fetch,
    })
    await expect(mail.send(ada)).resolves.toEqual(answer)
  })

  it('rejects a refusal with a MailApiError carrying the status and the body', async () => {
    const body = {
      error: 'invalid request body',
      issues: [
        { path: 'email', message: 'must be exactly one email address, like ada@example.com' },
      ],
    }
    const api = answering(() => Response.json(body, { status: 400 }))
    const mail = createMailClient('http://mail.test', {
      apiKey: 'mail-client-key-1',
      fetch: api.fetch,
    })
    const error = await refusal(mail.send({ email: 'ada@example.com, eve@example.com', name: 'A' }))
    expect(error).toBeInstanceOf(MailApiError)
    expect(error).toMatchObject({
      name: 'MailApiError',
      status: 400,
      body,
      retryAfterMs: undefined,
    })
    expect((error as Error).message).toBe(
      'invalid request body (email: must be exactly one email address, like ada@example.com)',
    )
  })

  it('names the status of an error page that is not the service’s', async () => {
    const page = () => new Response('<h1>nope</h1>', { status: 403, statusText: 'Forbidden' })
    const mail = createMailClient('http://mail.test', {
      apiKey: 'mail-client-key-0',
      fetch: answering(page).fetch,
    })
    await expect(mail.send(ada)).rejects.toMatchObject({
      status: 403,
      body: { error: '403 Forbidden' },
    })
  })

  it('does not retry a 2xx that is not JSON: it says what it is', async () => {
    const api = answering(
      () => new Response('<html>', { status: 201, headers: { 'content-type': 'text/html' } }),
    )
    const mail = createMailClient('http://mail.test', {
      apiKey: 'mail-client-key-0',
      fetch: api.fetch,
    })
    await expect(mail.send(ada)).rejects.toMatchObject({
      status: 201,
      message: '201: the answer is text/html, not JSON',
    })
    expect(api.requests).toHaveLength(1)
  })

  it('calls the global fetch when given none, looked up at the call', async () => {
    const api = new SendmailStandIn()
    const mail = createMailClient('http://mail.test', { apiKey: 'mail-client-key-0' })
    const original = globalThis.fetch
    globalThis.fetch = api.fetch as typeof globalThis.fetch
    try {
      await mail.send(ada)
    } finally {
      globalThis.fetch = original
    }
    expect(api.outbox).toHaveLength(1)
  })
})

describe('log', () => {
  const record = (n: number) => ({
    _id: `6b06dcb204db9216be29afd${n}`,
    email: 'ada@example.com',
    name: 'Ada',
    output: { id: `<${n}@outbox.local>`, message: 'Queued. Thank you.' },
  })

  it('reads a page of the mail log with the key, and the next page’s cursor', async () => {
    const sent: string[] = []
    const fetch: Fetch = async (url, init) => {
      sent.push(`${init.method} ${url} ${new Headers(init.headers).get('x-apikey')}`)
      const link = '</maillog?limit=2&cursor=6b06dcb204db9216be29afd4>; rel="next"'
      return url.includes('cursor')
        ? Response.json([record(3)])
        : Response.json([record(5), record(4)], { headers: { link } })
    }
    const mail = createMailClient('http://mail.test', { apiKey: 'mail-client-key-1', fetch })
    const first = await mail.log({ limit: 2 })
    expect(first).toEqual({ records: [record(5), record(4)], next: '6b06dcb204db9216be29afd4' })
    const last = await mail.log({ limit: 2, cursor: first.next })
    expect(last).toEqual({ records: [record(3)] })
    await mail.log()
    expect(sent).toEqual([
      'GET http://mail.test/maillog?limit=2 mail-client-key-1',
      'GET http://mail.test/maillog?limit=2&cursor=6b06dcb204db9216be29afd4 mail-client-key-1',
      'GET http://mail.test/maillog mail-client-key-1',
    ])
  })

  it('passes records on as the service answers them, fields it adds included', async () => {
    const answer = [{ ...record(1), key: 'caller-1' }]
    const fetch: Fetch = async () => Response.json(answer)
    const mail = createMailClient('http://mail.test', { apiKey: 'mail-client-key-1', fetch })
    await expect(mail.log()).resolves.toEqual({ records: answer })
  })

  it('rejects a refusal with a MailApiError', async () => {
    const fetch: Fetch = async () => Response.json({ error: 'Unauthorized' }, { status: 401 })
    const mail = createMailClient('http://mail.test', { apiKey: 'wrong', fetch })
    await expect(mail.log()).rejects.toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
  })
})
