import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type BuiltEntry,
  clockAhead,
  killBuiltEntries,
  MailgunStandIn,
  useMongoServer,
} from '@movies-and-mail/test-kit'
import { MongoClient, ObjectId } from 'mongodb'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { keyDigest } from '../src/api-keys/key-owner.js'
import { databaseName } from './support/mongo-server.js'
import { ensureBuilt, startServer } from './support/run-server.js'

const apiKey = 'fleet-mail-api-key'
const queued = '{"id":"<20261123120000.1@mg.example.com>","message":"Queued. Thank you."}'

describe('two mail-service processes on one MongoDB database', () => {
  const { url: mongoUrl } = useMongoServer('Two mail-service processes on one MongoDB database')
  const mailgun = MailgunStandIn.forEachTest(() => ({ status: 200, body: queued }))
  // A database for each test: the mail log of one is not the other's.
  const dbNames: string[] = []
  let dbName: string
  let dir: string

  beforeAll(ensureBuilt)
  beforeEach(async () => {
    dbName = databaseName('mail_fleet')
    dbNames.push(dbName)
    dir = await mkdtemp(join(tmpdir(), 'mail-fleet-'))
  })
  afterEach(async () => {
    await killBuiltEntries()
    await rm(dir, { recursive: true, force: true })
  })
  afterAll(async () => {
    const client = await new MongoClient(mongoUrl()).connect()
    for (const name of dbNames) await client.db(name).dropDatabase()
    await client.close()
  })

  /** Two processes of one fleet: one database, a directory each; `ahead` moves the second's clock. */
  const startFleet = ({ ahead = 0, outbox = false } = {}): Promise<BuiltEntry[]> =>
    Promise.all(
      ['one', 'two'].map((name) =>
        startServer({
          ...(name === 'two' && ahead > 0 && clockAhead(ahead)),
          ...(outbox && { MAIL_TRANSPORT: 'outbox' }),
          API_KEYS: apiKey,
          DATA_DIR: join(dir, name),
          MAIL_CONNECTION_URL: mongoUrl(),
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
    const responses = await Promise.all([
      send(one, 'ada@example.com', 'once-1'),
      send(two, 'ada@example.com', 'once-1'),
    ])
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409])
    const again = await send(two, 'ada@example.com', 'once-1')
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(mailgun.requests).toHaveLength(1)
  })

  it('count a limit of 3 an hour across both: 3 mails, the rest 429', async () => {
    const fleet = await startFleet()
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, n) => send(fleet[n % 2], 'grace@example.com')),
    )
    expect(responses.map((response) => response.status).sort()).toEqual([
      ...Array(3).fill(201),
      ...Array(7).fill(429),
    ])
    expect(mailgun.requests).toHaveLength(3)
    const log = await fetch(`${fleet[1]?.url}/maillog`, { headers: { 'x-apikey': apiKey } })
    expect(await log.json()).toHaveLength(3)
  })

  it('replay through one the response to a key the other sent', async () => {
    const [one, two] = await startFleet()
    const first = await send(one, 'ada@example.com', 'replay-1')
    expect(first.status).toBe(201)
    const again = await send(two, 'ada@example.com', 'replay-1')
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(await again.text()).toBe(await first.text())
    expect(mailgun.requests).toHaveLength(1)
  })

  it.each([
    ['on one clock', 0],
    ['with the second 30 s ahead', 30_000],
  ])('make no record id twice and list sends newest first, %s', async (_, ahead) => {
    const [one, two] = await startFleet({ ahead })
    const sent: string[] = []
    // The process ahead first: the other's ids must still come after its.
    for (const [n, service] of [two, one, two, one].entries()) {
      const email = `reader${n}@example.com`
      expect((await send(service, email)).status).toBe(201)
      sent.push(email)
    }
    const page = await fetch(`${one?.url}/maillog`, { headers: { 'x-apikey': apiKey } })
    const records = (await page.json()) as { _id: string; email: string }[]
    expect(records.map(({ email }) => email)).toEqual([...sent].reverse())
    expect(new Set(records.map(({ _id }) => _id)).size).toBe(records.length)
  })

  it('make no outbox id twice after a message a clock 30 s ahead kept', async () => {
    // In outbox mode the outbox's insert is the send: a duplicate id was a 503. The message is
    // filed under the fleet's key, as its sends are.
    const client = await new MongoClient(mongoUrl()).connect()
    const ahead = Math.floor(Date.now() / 1000) + 30
    const _id = new ObjectId(`${ahead.toString(16)}0000000000000001`)
    const owner = await keyDigest(apiKey)
    const message = { _id, createdAt: new Date(ahead * 1000), to: 'x@example.com', owner }
    await client.db(dbName).collection('outbox').insertOne(message)
    await client.close()
    const [one, two] = await startFleet({ outbox: true })
    expect((await send(one, 'first@example.com')).status).toBe(201)
    expect((await send(two, 'second@example.com')).status).toBe(201)
    const page = await fetch(`${two?.url}/outbox`, { headers: { 'x-apikey': apiKey } })
    const records = (await page.json()) as { to: string }[]
    expect(records.map(({ to }) => to)).toEqual([
      'second@example.com',
      'first@example.com',
      'x@example.com',
    ])
  })
})
