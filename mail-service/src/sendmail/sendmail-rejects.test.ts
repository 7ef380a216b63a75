import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MailgunStandIn } from '../../test/support/mailgun-stand-in.js'
import { sendMail, type TestApp, testApp } from '../../test/support/test-app.js'

const mailgun = MailgunStandIn.forEachTest()
let t: TestApp

beforeEach(async () => {
  t = await testApp({ mailgunUrl: mailgun.baseUrl })
})
afterEach(async () => {
  // Whatever was wrong, the provider was never called and nothing was logged.
  expect(mailgun.requests).toEqual([])
  expect(await t.mailLog.list({ limit: 10 })).toEqual([])
  await t.cleanup()
})

const name = 'Ada'
const invalidEmail = 'must be exactly one email address, like ada@example.com'

describe('POST /sendmail refuses, before the provider is called,', () => {
  it.each([
    ['no x-apikey', {}],
    ['a wrong x-apikey', { 'x-apikey': 'guess' }],
    ['a key that only starts like the right one', { 'x-apikey': 'test-key' }],
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

  it.each([
    ['a comma list', 'ada@example.com,eve@example.com'],
    ['a comma list with a space', 'ada@example.com, eve@example.com'],
    ['a semicolon list', 'ada@example.com;eve@example.com'],
    ['a display name', 'Ada <ada@example.com>'],
    ['angle brackets', '<ada@example.com>'],
    ['a CR/LF header injection', 'ada@example.com\r\nBcc: eve@example.com'],
    ['a bare LF injection', 'ada@example.com\nbcc:eve@example.com'],
    ['a leading space', ' ada@example.com'],
    ['a trailing space', 'ada@example.com '],
    ['a tab', 'ada\t@example.com'],
    ['a NUL character', 'ada@example.com\u0000'],
    ['a quoted local part', '"ada"@example.com'],
    ['a group', 'friends:ada@example.com;'],
    ['a comment', 'ada@example.com(eve@example.com)'],
    ['two @ signs', 'ada@eve@example.com'],
    ['no domain dot', 'ada@localhost'],
    ['no @ at all', 'ada.example.com'],
    ['an empty string', ''],
  ])('an email with %s: 400', async (_, email) => {
    const response = await sendMail(t.app, { email, name })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: 'invalid request body',
      issues: [{ path: 'email', message: invalidEmail }],
    })
  })

  it('an email of 255 characters: 400', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`
    const response = await sendMail(t.app, { email, name })
    expect(await response.json()).toEqual({
      error: 'invalid request body',
      issues: [{ path: 'email', message: 'must be at most 254 characters' }],
    })
  })

  it.each([
    ['empty', '', 'must not be empty'],
    ['blank', '   ', 'must not be blank'],
    ['101 characters long', 'n'.repeat(101), 'must be at most 100 characters'],
    ['holding CR/LF', 'Ada\r\nBcc: eve@example.com', 'must not contain control characters'],
    ['holding a bell', 'Ada\u0007', 'must not contain control characters'],
    ['holding a line separator', 'Ada\u2028Eve', 'must not contain control characters'],
  ])('a name %s: 400', async (_, badName, message) => {
    const response = await sendMail(t.app, { email: 'ada@example.com', name: badName })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: 'invalid request body',
      issues: [{ path: 'name', message }],
    })
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
    ['invalid JSON', '{"email": "ada@example.com",', 'request body is not valid JSON'],
    ['an empty body', '', 'request body is not valid JSON'],
    [
      'a JSON array',
      '[{"email":"ada@example.com","name":"Ada"}]',
      'request body must be a JSON object',
    ],
    ['a JSON string', '"ada@example.com"', 'request body must be a JSON object'],
  ])('%s: 400', async (_, body, error) => {
    const response = await sendMail(t.app, body)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error })
  })

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no content type', { 'content-type': '' }],
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
      headers: { 'content-type': 'application/json', 'x-apikey': 'test-key-7Hq2' },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
    expect(sent).toBeLessThan(10)
  })
})
