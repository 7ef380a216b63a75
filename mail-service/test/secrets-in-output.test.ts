import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closedPortUrl } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../src/app.js'
import { MailgunMailer } from '../src/mailer/mailgun-mailer.js'
import { MemoryIdempotencyStore } from './support/memory-stores/memory-idempotency-store.js'
import { MemoryMailLog } from './support/memory-stores/memory-mail-log.js'
import { MemorySendCounter } from './support/memory-stores/memory-send-counter.js'
import { ensureBuilt, failedStart } from './support/run-server.js'

const secret = 'pw-NEVER-PRINT-4e2'
let dataDir: string
beforeAll(async () => {
  ensureBuilt()
  dataDir = await mkdtemp(join(tmpdir(), 'mail-service-secrets-'))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

describe('a start that fails on a setting', () => {
  it.each([
    [
      'MAIL_API_URL of the wrong scheme',
      { MAIL_API_URL: `ftp://relay:${secret}@mail.example/v3` },
      'MAIL_API_URL="ftp://relay:***@mail.example/v3": must be an http(s) URL',
    ],
    [
      'MAIL_API_URL with credentials',
      {
        MAIL_APIKEY: 'key-1',
        MAIL_DOMAIN: 'mg.example.com',
        MAIL_API_URL: `https://relay:${secret}@mailgun.example`,
      },
      'MAIL_API_URL="https://relay:***@mailgun.example": must not hold a user or password',
    ],
    [
      'a malformed MAIL_APIKEY',
      { MAIL_APIKEY: `with space ${secret}`, MAIL_DOMAIN: 'mg.example.com' },
      'MAIL_APIKEY (value not shown): must be printable ASCII',
    ],
    [
      'a malformed MAILGUN_WEBHOOK_SIGNING_KEY',
      { MAILGUN_WEBHOOK_SIGNING_KEY: `with space ${secret}` },
      'MAILGUN_WEBHOOK_SIGNING_KEY (value not shown): must be printable ASCII',
    ],
    [
      'a malformed DETA_PROJECT_KEY',
      { DETA_PROJECT_KEY: secret },
      'DETA_PROJECT_KEY (value not shown): must look like',
    ],
    ['a malformed API_KEYS', { API_KEYS: `k1, k 2${secret}` }, 'API_KEYS (value not shown): '],
  ])('says which, for %s, and never prints the secret', async (_, env, says) => {
    const { code, output } = await failedStart({ DATA_DIR: dataDir, ...env })
    expect(code).toBe(1)
    expect(output).toContain(says)
    expect(output).not.toContain(secret)
  })
})

describe('the Mailgun transport', () => {
  it('logs a failed request without the password of its URL or the key', async () => {
    const lines: string[] = []
    const { port } = new URL(await closedPortUrl())
    const mailer = new MailgunMailer({
      baseUrl: `http://relay:${secret}@127.0.0.1:${port}`,
      domain: 'mg.example.com',
      apiKey: `key-${secret}`,
      timeoutMs: 2_000,
      logError: (line) => lines.push(line),
    })
    const result = await mailer.send({ from: 'a@b.c', to: 'd@e.f', subject: 's', text: 't' })
    expect(result).toMatchObject({ outcome: 'refused', status: 502 })
    expect(lines.join('\n')).toContain('relay:***@127.0.0.1')
    expect(lines.join('\n')).not.toContain(secret)
  })
})

describe("the app's error log", () => {
  it('keeps an unexpected error but not the password of a URL it quotes', async () => {
    const lines: string[] = []
    const app = createApp({
      mailer: {
        send: async () => {
          throw new Error(`lost https://relay:${secret}@mailgun.example/v3 mid-request`)
        },
      },
      mailLog: new MemoryMailLog(),
      idempotency: new MemoryIdempotencyStore(),
      counter: new MemorySendCounter(),
      apiKeys: ['secrets-test-api-key'],
      corsOrigins: ['*'],
      template: { from: 'a@example.com', subject: 'Hi', text: 'Hello {name}' },
      log: () => {},
      logError: (line) => lines.push(line),
    })
    const response = await app.request('/sendmail', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': 'secrets-test-api-key' },
      body: JSON.stringify({ email: 'ada@example.com', name: 'Ada' }),
    })
    expect(response.status).toBe(500)
    expect(lines.join('\n')).toContain('lost https://relay:***@mailgun.example/v3 mid-request')
    expect(lines.join('\n')).not.toContain(secret)
  })
})
