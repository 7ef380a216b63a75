import { DetaBaseStandIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { apiKey, appPerTest, sendMail, testApp } from '../../test/support/test-app.js'
import { keyDigest } from '../api-keys/key-owner.js'
import type { MailLogEntry } from '../ports/mail-log.js'
import { DetaMailLog } from '../stores/deta/deta-mail-log.js'

const ada = { email: 'ada@example.com', name: 'Ada' }
const { mailgun, t } = appPerTest({ clientTimeoutMs: 100 })
const deta = DetaBaseStandIn.forEachTest()

/** The app with its mail log in a Deta Base (the stand-in), through the SDK. */
const detaLogged = () =>
  testApp({
    mailgunUrl: mailgun.baseUrl,
    mailLog: new DetaMailLog<MailLogEntry>({
      projectKey: 'p1_secret',
      host: deta.host,
      baseName: 'maillog',
    }),
  })

describe('POST /sendmail when the mail log fails after the mail went out', () => {
  it('retries, then writes the whole record, its owner too, to the error log and still answers 201', async () => {
    const logged = await detaLogged()
    deta.failing.add('maillog')
    const response = await sendMail(logged.app, ada)

    expect(response.status).toBe(201)
    expect(mailgun.requests).toHaveLength(1)
    const inserts = deta.requests.filter((request) => request.path === '/v1/p1/maillog/items')
    expect(inserts).toHaveLength(3)
    const output = JSON.parse(typeof mailgun.reply === 'string' ? '' : mailgun.reply.body)
    const record = JSON.stringify({ ...ada, output, owner: await keyDigest(apiKey) })
    expect(logged.logs).toContainEqual(
      `maillog: insert failed 3 times (stand-in is failing on purpose); record to recover: ${record}`,
    )
    await logged.cleanup()
  })

  it('succeeds quietly when a retry gets through', async () => {
    const logged = await detaLogged()
    const { mailLog } = logged
    const insert = mailLog.insert.bind(mailLog)
    let calls = 0
    mailLog.insert = (record, owner) =>
      ++calls === 1 ? Promise.reject(new Error('blip')) : insert(record, owner)
    const response = await sendMail(logged.app, ada)
    expect(response.status).toBe(201)
    expect(deta.items('maillog')).toHaveLength(1)
    expect(logged.logs.filter((line) => line.startsWith('maillog:'))).toEqual([])
    await logged.cleanup()
  })
})

describe('a mail log slower than MAIL_TIMEOUT_MS', () => {
  it('still answers the 201 of a mail the provider accepted in time', async () => {
    const insert = t.mailLog.insert.bind(t.mailLog)
    t.mailLog.insert = async (record, owner) => {
      await new Promise((resolve) => setTimeout(resolve, 400))
      return insert(record, owner)
    }
    const response = await sendMail(t.app, ada, { 'idempotency-key': 'slow-log' })
    expect(response.status).toBe(201)
    expect(await t.mailLog.list({ limit: 10 })).toHaveLength(1)
  })
})
