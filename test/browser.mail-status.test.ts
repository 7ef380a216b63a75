import {
  MailgunStandIn,
  mailgunEvent,
  mailgunFailure,
  mailgunSigningKey,
  signedMailgunEvent,
} from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { noEventsNote } from '../items-service/src/web/ui/mail-status.js'
import { hasChromium } from './support/chromium.js'
import { useWebApp, type WebApp } from './support/web-app.js'

const apiKey = 'browser-status-key'
let sends = 0

/** Mailgun's settings for a mail-service sending to `mailgun`. */
const sendingTo =
  (mailgun: MailgunStandIn, env: Record<string, string> = {}) =>
  () => ({
    MAIL_APIKEY: 'key-browser-mailgun',
    MAIL_DOMAIN: 'mg.example.com',
    MAIL_API_URL: mailgun.baseUrl,
    ...env,
  })

/** Sends from the page a mail that Mailgun queues under a message id of its own; that id. */
async function sendFromPage(app: WebApp, mailgun: MailgunStandIn): Promise<string> {
  const messageId = `20261206120000.${++sends}${Date.now()}@mg.example.com`
  mailgun.reply = {
    status: 200,
    body: JSON.stringify({ id: `<${messageId}>`, message: 'Queued. Thank you.' }),
  }
  const form = app.page.getByRole('form', { name: 'Send mail' })
  await form.getByLabel('API key').fill(apiKey)
  await form.getByLabel('Email').fill(`reader${sends}@example.com`)
  await form.getByLabel('Name').fill('Ada')
  await form.getByRole('button', { name: 'Send' }).click()
  return messageId
}

/** What the form says of the status, polled long enough for the page's next read. */
const shown = (app: WebApp, which: 'status' | 'note') => {
  const locator = app.page.locator(which === 'status' ? '.mail-status' : '.mail-status-note')
  return expect.poll(async () => (await locator.textContent())?.trim(), { timeout: 15_000 })
}

/** Mailgun's webhook call for `event`, signed as Mailgun signs it. */
async function report(app: WebApp, event: ReturnType<typeof mailgunEvent>) {
  const response = await fetch(`${app.mail.url}/webhooks/mailgun`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(signedMailgunEvent(mailgunSigningKey, event)),
  })
  expect(await response.json()).toEqual({ filed: true })
}

describe.skipIf(!hasChromium)('the "Send mail" form, with Mailgun reporting events', () => {
  const mailgun = MailgunStandIn.forEachTest()
  const app = useWebApp({
    apiKey,
    mailEnv: sendingTo(mailgun, { MAILGUN_WEBHOOK_SIGNING_KEY: mailgunSigningKey }),
  })

  it('shows the status of the send as it changes: accepted, then delivered', async () => {
    const messageId = await sendFromPage(app, mailgun)
    await shown(app, 'status').toBe('accepted')
    await shown(app, 'note').toBe('Watching for changes…')
    await report(app, mailgunEvent('delivered', messageId))
    await shown(app, 'status').toBe('delivered')
    expect(await app.page.locator('.mail-status-note').count()).toBe(0)
    expect(mailgun.requests).toHaveLength(1)
  })

  it('shows a bounce with what the receiving server said', async () => {
    const messageId = await sendFromPage(app, mailgun)
    await shown(app, 'status').toBe('accepted')
    await report(app, mailgunFailure('temporary', messageId))
    await shown(app, 'status').toBe('deferred')
    await shown(app, 'note').toBe('Mailbox temporarily full (452)')
    await report(app, mailgunFailure('permanent', messageId))
    await shown(app, 'status').toBe('failed')
    await shown(app, 'note').toBe('No such user (550)')
  })

  it('wrote no script error to the console', () => {
    expect(app.problems).toEqual([])
  })
})

describe.skipIf(!hasChromium)('the "Send mail" form, with no delivery events', () => {
  const mailgun = MailgunStandIn.forEachTest()
  const app = useWebApp({ apiKey, mailEnv: sendingTo(mailgun) })

  it('says the status will not change: no delivery events are configured', async () => {
    await sendFromPage(app, mailgun)
    await shown(app, 'status').toBe('accepted')
    await shown(app, 'note').toBe(noEventsNote)
  })
})
