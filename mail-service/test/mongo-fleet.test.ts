import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BuiltEntry, killBuiltEntries, MailgunStandIn } from '@movies-and-mail/test-kit'
import { MongoClient } from 'mongodb'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { databaseName, mongoUrl, sayWhenSkipped } from './support/mongo-server.js'
import { ensureBuilt, startServer } from './support/run-server.js'

const apiKey = 'fleet-key'
const queued = '{"id":"<20261123120000.1@mg.example.com>","message":"Queued. Thank you."}'

sayWhenSkipped('Two mail-service processes on one MongoDB database (the built entry)')

describe.skipIf(!mongoUrl)('two mail-service processes on one MongoDB database', () => {
  const mailgun = MailgunStandIn.forEachTest(() => ({ status: 200, body: queued }))
  const dbName = databaseName('mail_fleet')
  let dir: string

  beforeAll(ensureBuilt)
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mail-fleet-'))
  })
  afterEach(async () => {
    await killBuiltEntries()
    await rm(dir, { recursive: true, force: true })
  })
  afterAll(async () => {
    const client = await new MongoClient(mongoUrl as string).connect()
    await client.db(dbName).dropDatabase()
    await client.close()
  })

  /** Two processes of one fleet: one database, a directory each. */
  const startFleet = (): Promise<BuiltEntry[]> =>
    Promise.all(
      ['one', 'two'].map((name) =>
        startServer({
          API_KEYS: apiKey,
          DATA_DIR: join(dir, name),
          MAIL_CONNECTION_URL: mongoUrl as string,
          MAIL_DB_NAME: dbName,
          MAIL_APIKEY: 'key-fleet',
          MAIL_DOMAIN: 'mg.example.com',
          MAIL_API_URL: mailgun.baseUrl,
          RATE_LIMIT_PER_RECIPIENT: '3/1h',
        }),
      ),
    )

  const send = (service: BuiltEntry | undefined, email: string, idempotencyKey?: string) =>
    fetch(`${service?.url}/sendmail`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-apikey': apiKey,
        ...(idempotencyKey && { 'idempotency-key': idempotencyKey }),
      },
      body: JSON.stringify({ email, name: 'Ada' }),
    })

  it('send one mail for one Idempotency-Key sent to both at once', async () => {
    const [one, two] = await startFleet()
    mailgun.reply = { status: 200, body: queued, delayMs: 300 }
    const answers = await Promise.all([
      send(one, 'ada@example.com', 'once-1'),
      send(two, 'ada@example.com', 'once-1'),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409])
    const again = await send(two, 'ada@example.com', 'once-1')
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(mailgun.requests).toHaveLength(1)
  })

  it('count a limit of 3 an hour across both: 3 mails, the rest 429', async () => {
    const fleet = await startFleet()
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => send(fleet[n % 2], 'grace@example.com')),
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      ...Array(3).fill(201),
      ...Array(7).fill(429),
    ])
    expect(mailgun.requests).toHaveLength(3)
    const log = await fetch(`${fleet[1]?.url}/maillog`, { headers: { 'x-apikey': apiKey } })
    expect(await log.json()).toHaveLength(3)
  })
})
