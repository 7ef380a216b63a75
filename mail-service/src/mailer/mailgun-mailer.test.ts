import { MailgunStandIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { MailgunMailer } from './mailgun-mailer.js'

const mailgun = MailgunStandIn.forEachTest()
const apiKey = 'key-3f9a7c1e5b2d'
const mail = { from: 'a@example.com', to: 'ada@example.com', subject: 's', text: 't' }

/** A mailer over the stand-in, and every line it logged. */
function mailer() {
  const lines: string[] = []
  const baseUrl = mailgun.baseUrl
  const sender = new MailgunMailer({
    baseUrl,
    domain: 'mg.example.com',
    apiKey,
    timeoutMs: 2_000,
    logError: (line) => lines.push(line),
  })
  return { sender, lines }
}

describe('MailgunMailer, when Mailgun refuses a message', () => {
  it("gives the caller the status text and logs Mailgun's reason", async () => {
    mailgun.reply = {
      status: 400,
      body: `{"message":"'to' parameter is not a valid address. please check documentation"}`,
    }
    const { sender, lines } = mailer()
    expect(await sender.send(mail)).toEqual({
      outcome: 'refused',
      status: 400,
      error: 'Bad Request',
    })
    expect(lines).toEqual([
      "mailgun: refused with 400: 'to' parameter is not a valid address. please check documentation",
    ])
  })

  it('logs a text body on one line, bounded, with the key redacted', async () => {
    mailgun.reply = {
      status: 401,
      contentType: 'text/plain',
      body: `Forbidden\r\nkey ${apiKey} is not valid\n${'x'.repeat(10_000)}`,
    }
    const { sender, lines } = mailer()
    expect(await sender.send(mail)).toMatchObject({ outcome: 'refused', status: 401 })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^mailgun: refused with 401: Forbidden key \*\*\* is not valid x+…$/)
    expect(lines[0]).not.toContain(apiKey)
    expect(lines[0]?.length).toBeLessThan(400)
  })

  it('says so when Mailgun gives no reason', async () => {
    mailgun.reply = { status: 429, body: '' }
    const { sender, lines } = mailer()
    expect(await sender.send(mail)).toMatchObject({ outcome: 'refused', status: 429 })
    expect(lines).toEqual(['mailgun: refused with 429: (no reason given)'])
  })
})
