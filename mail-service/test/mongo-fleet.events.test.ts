import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  killBuiltEntries,
  MailgunStandIn,
  mailgunEvent,
  mailgunSigningKey,
  signedMailgunEvent,
  useMongoServer,
} from '@movies-and-mail/test-kit'
import { MongoClient } from 'mongodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseName } from './support/mongo-server.js'
import { ensureBuilt, startServer } from './support/run-server.js'

const apiKey = 'fleet-mail-api-key'
const messageId = '20261123120000.1@mg.example.com'

describe("two mail-service processes on one MongoDB database, and Mailgun's events", () => {
  const { url: mongoUrl } = useMongoServer('Mail events on two processes of one MongoDB')
  const mailgun = MailgunStandIn.forEachTest(() => ({
    status: 200,
    body: JSON.stringify({ id: `<${messageId}>`, message: 'Queued. Thank you.' }),
  }))
  const dbName = databaseName('mail_fleet_events')
  let dir: string

  beforeAll(async () => {
    ensureBuilt()
    dir = await mkdtemp(join(tmpdir(), 'mail-fleet-events-'))
  })
  afterAll(async () => {
    await killBuiltEntries()
    await rm(dir, { recursive: true, force: true })
    const client = await new MongoClient(mongoUrl()).connect()
    await client.db(dbName).dropDatabase()
    await client.close()
  })

  it('file one event both receive at once, 10 copies each, once; a replayed token neither', async () => {
    const fleet = await Promise.all(
      ['one', 'two'].map((name) =>
        startServer({
          API_KEYS: apiKey,
          DATA_DIR: join(dir, name),
          MAIL_CONNECTION_URL: mongoUrl(),
          MAIL_DB_NAME: dbName,
          MAIL_APIKEY: 'key-fleet',
          MAIL_DOMAIN: 'mg.example.com',
          MAIL_API_URL: mailgun.baseUrl,
          MAILGUN_WEBHOOK_SIGNING_KEY: mailgunSigningKey,
        }),
      ),
    )
    const sent = await fetch(`${fleet[0]?.url}/sendmail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
      body: JSON.stringify({ email: 'ada@example.com', name: 'Ada' }),
    })
    expect(sent.status).toBe(201)
    const post = (n: number, body: unknown) =>
      fetch(`${fleet[n % 2]?.url}/webhooks/mailgun`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const body = signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', messageId))
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => post(n, body)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    const filed = await Promise.all(answers.map((answer) => answer.json()))
    expect(filed.filter((answer) => (answer as { filed: boolean }).filed)).toHaveLength(1)
    const replayed = { ...body, 'event-data': mailgunEvent('complained', messageId) }
    expect(
      (await Promise.all([post(0, replayed), post(1, replayed)])).map((a) => a.status),
    ).toEqual([409, 409])
    const location = sent.headers.get('location') ?? ''
    const record = await fetch(`${fleet[1]?.url}${location}`, { headers: { 'x-apikey': apiKey } })
    expect(await record.json()).toMatchObject({
      status: 'delivered',
      events: [{ event: 'delivered' }],
    })
  })
})
