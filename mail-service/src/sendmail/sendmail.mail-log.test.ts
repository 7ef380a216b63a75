import { MailgunStandIn } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DetaStandIn } from '../../test/support/deta-stand-in.js'
import { sendMail, testApp } from '../../test/support/test-app.js'
import { DetaMailLog } from '../mail-log/deta-mail-log.js'
import type { MailLogEntry } from '../mail-log/mail-log.js'

let mailgun: MailgunStandIn
let deta: DetaStandIn
beforeAll(async () => {
  ;[mailgun, deta] = await Promise.all([MailgunStandIn.start(), DetaStandIn.start()])
})
afterAll(async () => {
  await Promise.all([mailgun.stop(), deta.stop()])
})

describe('POST /sendmail when the mail log fails after the mail went out', () => {
  it('retries, then writes the whole record to the error log and still answers 201', async () => {
    const mailLog = new DetaMailLog<MailLogEntry>({
      projectKey: 'p1_secret',
      host: deta.host,
      baseName: 'maillog',
    })
    const t = await testApp({ mailgunUrl: mailgun.baseUrl, mailLog })
    deta.failing = true
    const response = await sendMail(t.app, { email: 'ada@example.com', name: 'Ada' })
    deta.failing = false

    expect(response.status).toBe(201)
    expect(mailgun.requests).toHaveLength(1)
    const inserts = deta.requests.filter((request) => request.path === '/v1/p1/maillog/items')
    expect(inserts).toHaveLength(3)
    const output = JSON.parse(mailgun.reply === 'hang' ? '' : mailgun.reply.body)
    const record = JSON.stringify({ email: 'ada@example.com', name: 'Ada', output })
    expect(t.logs).toContainEqual(
      `maillog: insert failed 3 times (stand-in is failing on purpose); record to recover: ${record}`,
    )
    await t.cleanup()
  })

  it('succeeds quietly when a retry gets through', async () => {
    const mailLog = new DetaMailLog<MailLogEntry>({
      projectKey: 'p2_secret',
      host: deta.host,
      baseName: 'maillog',
    })
    let calls = 0
    const flaky = {
      ...mailLog,
      insert: (record: MailLogEntry) =>
        ++calls === 1 ? Promise.reject(new Error('blip')) : mailLog.insert(record),
      list: mailLog.list.bind(mailLog),
      ping: mailLog.ping.bind(mailLog),
      close: mailLog.close.bind(mailLog),
      prune: mailLog.prune.bind(mailLog),
    }
    const t = await testApp({ mailgunUrl: mailgun.baseUrl, mailLog: flaky })
    const response = await sendMail(t.app, { email: 'ada@example.com', name: 'Ada' })
    expect(response.status).toBe(201)
    expect(deta.items('maillog')).toHaveLength(1)
    expect(t.logs.filter((line) => line.startsWith('maillog:'))).toEqual([])
    await t.cleanup()
  })
})
