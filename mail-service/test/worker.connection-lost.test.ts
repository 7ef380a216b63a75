import { closedPortUrl, MailgunStandIn } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outcomeUnknown } from '../src/sendmail/held-key.js'
import { ensureBuilt } from './support/run-server.js'
import { ada, bindings, sendTo, warmedUp, workerForThisTest } from './support/worker-under-test.js'

// The Worker's fetch to a Mailgun stand-in over a real connection (workerd's own network, not
// the test's outbound function, which can only answer), so that a reset is workerd's to report.

let mailgun: MailgunStandIn
beforeAll(async () => {
  ensureBuilt()
  mailgun = await MailgunStandIn.start()
})
afterAll(() => mailgun.stop())

const { DETA_PROJECT_KEY: _, DETA_BASE_HOST: __, ...withoutDeta } = bindings
const network = { network: { allow: ['private', 'local'] } }
const lost = 'the connection to the mail provider was lost before it answered'
const key = { 'idempotency-key': 'signup-lost' }

const workerSendingTo = (url: string) =>
  warmedUp(
    workerForThisTest(
      { ...withoutDeta, MAIL_API_URL: url, MAIL_TIMEOUT_MS: '3000' },
      { outboundService: network },
    ),
  )

describe('the Worker when the connection to Mailgun is lost before any answer', () => {
  it.each([
    ['reset', 'reset' as const],
    ['closed', 'close' as const],
  ])('%s: 502 of unknown outcome, the key kept, never sent again', async (_, reply) => {
    mailgun.requests.length = 0
    const mf = await workerSendingTo(mailgun.baseUrl)
    mailgun.reply = reply
    const first = await sendTo(mf, ada, key)
    expect([first.status, await first.json()]).toEqual([
      502,
      { error: `${lost}; ${outcomeUnknown}` },
    ])
    mailgun.reply = { status: 200, body: '{"id":"<1@mg.example.com>","message":"Queued"}' }
    expect((await sendTo(mf, ada, key)).status).toBe(409)
    expect(mailgun.requests).toHaveLength(1)
  })

  it('keeps the key of a refused connection too: workerd reports it as a lost one', async () => {
    const mf = await workerSendingTo(await closedPortUrl())
    const first = await sendTo(mf, ada, key)
    expect([first.status, await first.json()]).toEqual([
      502,
      { error: `${lost}; ${outcomeUnknown}` },
    ])
    expect((await sendTo(mf, ada, key)).status).toBe(409)
  })
})
