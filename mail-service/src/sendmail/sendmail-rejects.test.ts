import { afterEach, describe, expect, it } from 'vitest'
import { refusedMailBodies } from '../../test/support/refused-mail-bodies.js'
import { appPerTest, sendMail } from '../../test/support/test-app.js'

const { mailgun, t } = appPerTest()

afterEach(async () => {
  // Whatever was wrong, the provider was never called and nothing was logged.
  expect(mailgun.requests).toEqual([])
  expect(await t.mailLog.list({ limit: 10 })).toEqual([])
})

const name = 'Ada'

describe('POST /sendmail refuses, before the provider is called,', () => {
  it.each([
    ['no x-apikey', {}],
    ['a wrong x-apikey', { 'x-apikey': 'guess' }],
    ['a key that only starts like the right one', { 'x-apikey': 'mail-test-key' }],
  ])('a call with %s: 401 Unauthorized', async (_, headers) => {
    const response = await t.app.request('/sendmail', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email: 'ada@example.com', name }),
    })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: 'Unauthorized' })
  })

  it('a wrong key even when the body is bad too: the key is checked first', async () => {
    const response = await sendMail(t.app, 'not json', {
      'x-apikey': 'guess',
      'content-type': 'text/plain',
    })
    expect(response.status).toBe(401)
  })

  it.each(refusedMailBodies)('$what: 400', async ({ body, issues, error }) => {
    const response = await sendMail(t.app, body)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual(
      issues ? { error: 'invalid request body', issues } : { error },
    )
  })

  it.each([
    ['email is a number', { email: 42, name }, ['email']],
    ['email is a list', { email: ['ada@example.com', 'eve@example.com'], name }, ['email']],
    ['name is an object', { email: 'ada@example.com', name: { first: 'Ada' } }, ['name']],
    ['both are missing', {}, ['email', 'name']],
    ['email is null', { email: null, name }, ['email']],
  ])('a body where %s: 400 naming the fields', async (_, body, paths) => {
    const response = await sendMail(t.app, body)
    expect(response.status).toBe(400)
    const answer = (await response.json()) as { issues: { path: string }[] }
    expect(answer.issues.map((issue) => issue.path)).toEqual(paths)
  })

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no content type', { 'content-type': '' }],
    ['a +json format of its own', { 'content-type': 'application/merge-patch+json' }],
  ])('a body sent as %s: 415', async (_, headers) => {
    const response = await sendMail(t.app, { email: 'ada@example.com', name }, headers)
    expect(response.status).toBe(415)
    expect(await response.json()).toEqual({ error: 'Content-Type must be application/json' })
  })

  it('a body over 16 KiB: 413', async () => {
    const body = JSON.stringify({ email: 'ada@example.com', name, pad: 'x'.repeat(16 * 1024) })
    const response = await sendMail(t.app, body)
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ error: 'request body is larger than 16384 bytes' })
  })

  it('a chunked body over 16 KiB without Content-Length: 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(4096))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 0) controller.enqueue(new TextEncoder().encode('{"pad":"'))
        else if (sent < 100) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const response = await t.app.request('/sendmail', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': 'mail-test-key-7Hq2' },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
    expect(sent).toBeLessThan(10)
  })
})
