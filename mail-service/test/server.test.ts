import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type BuiltEntry,
  DetaBaseStandIn,
  killBuiltEntries,
  MailgunStandIn,
  RawConnection,
  rawRequest,
} from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ensureBuilt, failedStart, startServer } from './support/run-server.js'

let dataDir: string

beforeAll(ensureBuilt)
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mail-service-e2e-'))
})
afterEach(async () => {
  await killBuiltEntries()
  await rm(dataDir, { recursive: true, force: true })
})

function start(env: Record<string, string> = {}): Promise<BuiltEntry> {
  return startServer({ DATA_DIR: dataDir, ...env })
}

const post = (url: string, key: string, body: unknown) =>
  fetch(`${url}/sendmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-apikey': key },
    body: JSON.stringify(body),
  })

describe('node dist/server.js', () => {
  it('sends in outbox mode out of the box, says so loudly, and keeps the logs across restarts', async () => {
    const first = await start()
    expect(first.output).toContain('OUTBOX MODE: mail is NOT delivered')
    const key = /x-apikey: (\S+)/.exec(first.output)?.[1] as string
    expect(key).toMatch(/^[\w-]{32}$/)

    const response = await post(first.url, key, { email: 'ada@example.com', name: 'Ada' })
    expect(response.status).toBe(201)
    const answer = (await response.json()) as { id: string; message: string }
    expect(answer).toEqual({
      id: expect.stringMatching(/^<\d{14}\.[0-9a-f]{16}@outbox\.local>$/),
      message: 'Queued. Thank you.',
    })
    const outbox = await fetch(`${first.url}/outbox`, { headers: { 'x-apikey': key } })
    expect(await outbox.json()).toMatchObject([{ id: answer.id, to: 'ada@example.com' }])
    expect(first.output).toMatch(/ [0-9a-f]{6}-\w+ POST \/sendmail 201 [\d.]+ms\n/)
    expect(first.output.match(new RegExp(key, 'g'))).toHaveLength(1)

    first.kill('SIGTERM')
    expect((await first.exited).code).toBe(0)

    // The records are the made key's: the operator's own key, made an admin key, lists them.
    const second = await start({
      API_KEYS: 'fixed-mail-api-key',
      ADMIN_API_KEYS: 'fixed-mail-api-key',
    })
    expect(second.output).not.toContain('x-apikey:')
    const log = await fetch(`${second.url}/maillog`, {
      headers: { 'x-apikey': 'fixed-mail-api-key' },
    })
    expect(await log.json()).toEqual([
      {
        email: 'ada@example.com',
        name: 'Ada',
        output: answer,
        _id: expect.any(String),
        // Kept in the outbox, not delivered: no provider's event will ever come.
        status: 'outbox',
        events: [],
      },
    ])
  })

  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const mailgun = await MailgunStandIn.start()
    mailgun.reply = {
      status: 200,
      body: '{"id":"<1.2@m>","message":"Queued. Thank you."}',
      delayMs: 500,
    }
    const server = await start({
      API_KEYS: 'server-test-api-key',
      MAIL_APIKEY: 'key-secret-e2e',
      MAIL_DOMAIN: 'mg.example.com',
      MAIL_API_URL: mailgun.baseUrl,
    })
    const pending = post(server.url, 'server-test-api-key', {
      email: 'ada@example.com',
      name: 'Ada',
    })
    while (mailgun.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    server.kill('SIGTERM')
    const response = await pending
    expect(response.status).toBe(201)
    expect(await response.text()).toBe('{"id":"<1.2@m>","message":"Queued. Thank you."}')
    expect((await server.exited).code).toBe(0)
    expect(server.output).not.toContain('key-secret-e2e')
    await mailgun.stop()
  })

  it('logs to a Deta-Base-compatible host given by DETA_BASE_HOST', async () => {
    const deta = await DetaBaseStandIn.start()
    const server = await start({
      API_KEYS: 'server-test-api-key',
      DETA_PROJECT_KEY: 'e2e0_projectsecret',
      DETA_BASE_HOST: deta.host,
    })
    expect(server.output).toContain(`state: Deta Base at ${deta.host}`)
    expect(
      (await post(server.url, 'server-test-api-key', { email: 'ada@example.com', name: 'Ada' }))
        .status,
    ).toBe(201)
    expect(deta.items('maillog')).toEqual([
      expect.objectContaining({ email: 'ada@example.com', name: 'Ada', key: expect.any(String) }),
    ])
    expect(deta.requests.every((r) => r.apiKey === 'e2e0_projectsecret')).toBe(true)
    expect(server.output).not.toContain('projectsecret')
    await deta.stop()
  })

  it('cuts off a chunked body over 16 KiB with 413', async () => {
    const server = await start({ API_KEYS: 'server-test-api-key' })
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${server.url}/sendmail`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-apikey': 'server-test-api-key',
          'transfer-encoding': 'chunked',
        },
      })
      req.on('response', (res) => resolve(res.statusCode))
      req.on('error', reject)
      req.write('{"pad":"')
      for (let i = 0; i < 8; i++) req.write('x'.repeat(4096))
      req.end('"}')
    })
    expect(status).toBe(413)
  })

  it('answers Expect: 100-continue with a wrong key by the 401 alone, a right one by 100 first', async () => {
    const service = await start({ API_KEYS: 'right-mail-api-key' })
    const body = JSON.stringify({ email: 'ada@example.com', name: 'Ada' })
    const head = (key: string) =>
      rawRequest('POST', '/sendmail', {
        host: 'localhost',
        'x-apikey': key,
        'content-type': 'application/json',
        'content-length': String(body.length),
        expect: '100-continue',
      })
    const wrong = await RawConnection.open(service.url)
    await wrong.send(head('wrong-key'))
    expect((await wrong.answer())?.status).toBe(401)
    wrong.destroy()
    const right = await RawConnection.open(service.url)
    await right.send(head('right-mail-api-key'))
    expect((await right.answer())?.status).toBe(100)
    await right.send(body)
    expect((await right.answer())?.status).toBe(201)
    right.destroy()
  })

  // The end of the client's side delimits nothing (RFC 9112 §9.6): a client that ends it once
  // its request is sent (`nc -N`, `socat`, some scripts) must learn that its mail went, or it
  // sends it again.
  it("answers a send whose client ends its side once the request is sent, with the provider's answer", async () => {
    const mailgun = await MailgunStandIn.start()
    mailgun.reply = { status: 200, body: '{"id":"<3.4@m>","message":"Queued. Thank you."}' }
    const service = await start({
      API_KEYS: 'server-test-api-key',
      MAIL_APIKEY: 'key-secret-e2e',
      MAIL_DOMAIN: 'mg.example.com',
      MAIL_API_URL: mailgun.baseUrl,
    })
    const body = JSON.stringify({ email: 'ada@example.com', name: 'Ada' })
    const connection = await RawConnection.open(service.url)
    const headers = {
      host: 'localhost',
      'x-apikey': 'server-test-api-key',
      'content-type': 'application/json',
      'content-length': String(body.length),
    }
    connection.end(rawRequest('POST', '/sendmail', headers, body))
    const answer = await connection.answer()
    connection.destroy()
    expect(answer?.status).toBe(201)
    expect(String(answer?.body)).toBe('{"id":"<3.4@m>","message":"Queued. Thank you."}')
    expect(mailgun.requests).toHaveLength(1)
    await mailgun.stop()
  })

  it('says plainly when its port is taken, and exits 1', async () => {
    const first = await start({ API_KEYS: 'server-test-api-key' })
    const port = new URL(first.url).port
    const { code, output } = await failedStart({ DATA_DIR: join(dataDir, 'other'), PORT: port })
    expect(code).toBe(1)
    expect(output).toContain(`mail-service cannot start: port ${port} is in use`)
    expect(output).not.toMatch(/\n\s+at /)
  })

  it('refuses to start with MAIL_TRANSPORT=mailgun and no secrets, saying which', async () => {
    const { code, output } = await failedStart({ DATA_DIR: dataDir, MAIL_TRANSPORT: 'mailgun' })
    expect(code).toBe(1)
    expect(output).toContain('MAIL_TRANSPORT=mailgun needs MAIL_APIKEY and MAIL_DOMAIN')
    expect(output).not.toMatch(/\n\s+at /)
  })
})
