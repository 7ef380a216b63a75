import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type BuiltEntry,
  DetaBaseStandIn,
  killBuiltEntries,
  MailgunStandIn,
  MongoStandIn,
} from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ensureBuilt, failedStart, startServer } from './support/run-server.js'

const apiKey = 'mongo-e2e-mail-api-key'
const timeoutMs = 1_000
/** MAIL_TIMEOUT_MS and a slow machine's scheduling. */
const boundMs = timeoutMs + 2_000
const mailgun = MailgunStandIn.forEachTest()
let mongo: MongoStandIn
let dir: string

beforeAll(ensureBuilt)
beforeEach(async () => {
  mongo = await MongoStandIn.start()
  dir = await mkdtemp(join(tmpdir(), 'mail-mongo-'))
})
afterEach(async () => {
  await killBuiltEntries()
  await mongo.close()
  await rm(dir, { recursive: true, force: true })
})

/** The service's settings with its state in the stand-in and its mail to Mailgun's. */
const settings = (env: Record<string, string> = {}) => ({
  API_KEYS: apiKey,
  DATA_DIR: join(dir, 'data'),
  MAIL_CONNECTION_URL: mongo.url,
  MAIL_APIKEY: 'key-e2e',
  MAIL_DOMAIN: 'mg.example.com',
  MAIL_API_URL: mailgun.baseUrl,
  MAIL_TIMEOUT_MS: String(timeoutMs),
  MAIL_GIVE_UP_MS: String(timeoutMs),
  ...env,
})

const start = (env?: Record<string, string>): Promise<BuiltEntry> => startServer(settings(env))

const send = (service: BuiltEntry, idempotencyKey?: string) =>
  fetch(`${service.url}/sendmail`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-apikey': apiKey,
      ...(idempotencyKey && { 'idempotency-key': idempotencyKey }),
    },
    body: JSON.stringify({ email: 'ada@example.com', name: 'Ada' }),
  })

describe('node dist/server.js with MAIL_CONNECTION_URL', () => {
  it('keeps its state in MongoDB, says so at start, and answers a send', async () => {
    const service = await start()
    const servers = `127.0.0.1:${mongo.port}`
    expect(service.output).toContain(
      `state: MongoDB at ${servers}, database data ` +
        '(collections maillog, outbox, idempotency_keys, send_counts)',
    )
    const created = mongo.received('createIndexes').map((command) => command.createIndexes)
    expect(created.sort()).toEqual(['idempotency_keys', 'maillog', 'send_counts'])

    const response = await send(service, 'signup-1')
    expect(response.status).toBe(201)
    expect(mailgun.requests).toHaveLength(1)
    const written = mongo.commands.filter(({ name }) =>
      ['insert', 'findAndModify', 'update'].includes(name),
    )
    expect(written.map(({ name, body }) => `${name} ${body[name]}`)).toEqual([
      'insert idempotency_keys',
      'findAndModify send_counts',
      'findAndModify send_counts',
      'insert maillog',
      'update idempotency_keys',
    ])
    // Nothing of the state is kept on this machine.
    expect(existsSync(join(dir, 'data'))).toBe(false)
    const handshake = mongo.commands.find(({ body }) => body.client)
    expect(handshake?.body.client.application).toEqual({ name: 'mail-service' })
  })

  it('answers 503 in time and sends nothing while the database does not answer, then recovers', async () => {
    const service = await start()
    mongo.stall()
    const started = performance.now()
    const stalled = await send(service, 'signup-2')
    expect(performance.now() - started).toBeLessThan(boundMs)
    expect(stalled.status).toBe(503)
    expect(await stalled.json()).toEqual({ error: 'the store of idempotency keys does not answer' })
    expect((await fetch(`${service.url}/healthz`)).status).toBe(503)
    expect(mailgun.requests).toEqual([])

    mongo.answer()
    const deadline = Date.now() + 5_000
    while ((await fetch(`${service.url}/healthz`)).status !== 200 && Date.now() < deadline) {}
    expect((await send(service, 'signup-3')).status).toBe(201)
    expect(mailgun.requests).toHaveLength(1)
  })

  it('stops the start within MAIL_TIMEOUT_MS when the database does not answer, without its password', async () => {
    mongo.stall('all')
    const url = `mongodb://mail:s3cret-pw@127.0.0.1:${mongo.port}/?directConnection=true`
    const started = performance.now()
    const failed = await failedStart(settings({ MAIL_CONNECTION_URL: url }))
    expect(performance.now() - started).toBeLessThan(boundMs + 1_000)
    expect(failed.code).toBe(1)
    expect(failed.output).toContain(
      `mail-service cannot start: database unavailable: no answer within ${timeoutMs} ms ` +
        `(MongoDB at 127.0.0.1:${mongo.port}, database data)`,
    )
    expect(failed.output).not.toContain('s3cret-pw')
  })

  it('keeps the logs in the Deta Base and the keys and counts in MongoDB when both are set', async () => {
    const deta = await DetaBaseStandIn.start()
    try {
      const service = await start({
        DETA_PROJECT_KEY: 'e2e0_projectsecret',
        DETA_BASE_HOST: deta.host,
        MAIL_DB_NAME: 'mail',
      })
      expect(service.output).toContain(
        `state: mail log and outbox in Deta Base at ${deta.host} (bases maillog, outbox); ` +
          `idempotency keys and send counts in MongoDB at 127.0.0.1:${mongo.port}, database mail ` +
          '(collections idempotency_keys, send_counts)',
      )
      expect((await send(service, 'signup-4')).status).toBe(201)
      expect(deta.items('maillog')).toHaveLength(1)
      expect(mongo.received('insert').map((insert) => [insert.$db, insert.insert])).toEqual([
        ['mail', 'idempotency_keys'],
      ])
    } finally {
      await deta.stop()
    }
  })
})
