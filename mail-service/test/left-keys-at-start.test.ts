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
import { MongoClient } from 'mongodb'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, startServer } from './support/run-server.js'

// A process killed between logging a keyed send and keeping its answer under the key: the
// store is made to fail at that write, and the process is killed while it fails, so the crash
// falls there every time. The next start completes the key from the mail log before any retry.

const apiKey = 'left-keys-test-key'
const queued = '{"id":"<20261206120000.7@mg.example.com>","message":"Queued. Thank you."}'
const ada = { email: 'ada@example.com', name: 'Ada' }
const mailgun = MailgunStandIn.forEachTest(() => ({ status: 200, body: queued }))
let dir: string

beforeAll(ensureBuilt)
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mail-left-keys-'))
})
afterEach(async () => {
  await killBuiltEntries()
  await rm(dir, { recursive: true, force: true })
})

const start = (env: Record<string, string>) =>
  startServer({
    API_KEYS: apiKey,
    DATA_DIR: join(dir, 'data'),
    MAIL_APIKEY: 'key-left-keys',
    MAIL_DOMAIN: 'mg.example.com',
    MAIL_API_URL: mailgun.baseUrl,
    MAIL_TIMEOUT_MS: '500',
    ...env,
  })

const send = (service: BuiltEntry) =>
  fetch(`${service.url}/sendmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-apikey': apiKey, 'idempotency-key': 'k-1' },
    body: JSON.stringify(ada),
  }).catch(() => undefined)

/** Kills the service once `reached()` says its write of the key's answer came. */
async function killAtAnswer(service: BuiltEntry, reached: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(reached()).toBe(true), { timeout: 10_000, interval: 5 })
  service.kill('SIGKILL')
  await service.exited
}

/** The retry after the restart: the first answer again, and no second mail. */
async function expectReplayed(service: BuiltEntry): Promise<void> {
  const retry = await send(service)
  expect([retry?.status, retry?.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
  expect(await retry?.text()).toBe(queued)
  expect(mailgun.requests).toHaveLength(1)
}

describe('a start after a kill -9 between the log and the key', () => {
  it('completes the key from the mail log, in MongoDB', async () => {
    const mongo = await MongoStandIn.start()
    try {
      const env = { MAIL_CONNECTION_URL: mongo.url, MAIL_DB_NAME: 'mail' }
      const service = await start(env)
      const keeps = (name: string, body: Record<string, unknown>) =>
        name === 'update' && body.update === 'idempotency_keys'
      mongo.stallAt(keeps)
      void send(service)
      await killAtAnswer(service, () => mongo.commands.some(({ name, body }) => keeps(name, body)))
      mongo.answer()

      const client = await new MongoClient(mongo.url).connect()
      const keys = client.db('mail').collection('idempotency_keys')
      try {
        expect((await keys.findOne({}))?.answer).toBeUndefined()
        const restarted = await start(env)
        expect(restarted.output).toContain('completed 1 idempotency key(s) left mid-send')
        expect((await keys.findOne({}))?.answer).toEqual({ status: 201, body: queued })
        await expectReplayed(restarted)
      } finally {
        await client.close()
      }
    } finally {
      await mongo.close()
    }
  })

  it('completes the key from the mail log, in a Deta Base', async () => {
    const deta = await DetaBaseStandIn.start()
    try {
      const env = { DETA_PROJECT_KEY: 'left0_projectsecret', DETA_BASE_HOST: deta.host }
      const service = await start(env)
      mailgun.reply = { status: 200, body: queued, delayMs: 300 }
      void send(service)
      // While Mailgun takes the message, the keys' Base starts failing: the answer is not kept.
      await vi.waitFor(() => expect(mailgun.requests).toHaveLength(1), { interval: 5 })
      deta.failing.add('idempotency')
      const answerAsked = deta.requestsTo('idempotency').length + 1
      await killAtAnswer(service, () => deta.requestsTo('idempotency').length >= answerAsked)
      deta.failing.clear()

      expect(deta.items('maillog')).toHaveLength(1)
      const [left] = deta.items('idempotency')
      expect(left?.answer).toBeUndefined()
      const restarted = await start(env)
      expect(restarted.output).toContain('completed 1 idempotency key(s) left mid-send')
      expect(deta.items('idempotency')[0]?.answer).toEqual({ status: 201, body: queued })
      await expectReplayed(restarted)
    } finally {
      await deta.stop()
    }
  })
})
