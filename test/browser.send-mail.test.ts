import { mkdir } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { artifacts, hasChromium } from './support/chromium.js'
import { text, useWebApp } from './support/web-app.js'

const apiKey = 'browser-test-key'

// Sending mail from the page through the mail-service in outbox mode.
describe.skipIf(!hasChromium)('the web app in Chromium', () => {
  // The wrong key's 401 is provoked below.
  const app = useWebApp({ apiKey, provoked: [401] })

  it('sends a mail through the mail-service in outbox mode and shows its id', async () => {
    const form = app.page.getByRole('form', { name: 'Send mail' })
    await form.getByLabel('API key').fill(apiKey)
    await form.getByLabel('Email').fill('ada@example.com')
    await form.getByLabel('Name').fill('Ada')
    await form.getByRole('button', { name: 'Send' }).click()
    const sentId = form.locator('.mail-id')
    await text(sentId).toMatch(/^<\d+\.[0-9a-f]+@outbox\.local>$/)
    await text(form).toContain('Queued. Thank you.')
    const outboxNote = 'Mail kept in the outbox: nothing was delivered (outbox mode)'
    await text(app.status()).toBe(outboxNote)
    await text(form).toContain(outboxNote)
    // The send's record says so too, and nothing more will come of it.
    await text(form.locator('.mail-status')).toBe('outbox')
    const outbox = await fetch(`${app.mail.url}/outbox`, { headers: { 'x-apikey': apiKey } })
    expect(JSON.stringify(await outbox.json())).toContain('ada@example.com')
    await mkdir(artifacts, { recursive: true })
    await app.page.screenshot({ path: new URL('web-app.png', artifacts).pathname, fullPage: true })
  })

  it('says a wrong API key was refused, and where the right one is', async () => {
    const form = app.page.getByRole('form', { name: 'Send mail' })
    await form.getByLabel('API key').fill('wrong-key')
    await form.getByRole('button', { name: 'Send' }).click()
    await text(form.getByRole('alert')).toMatch(
      /^The mail service refused this API key\. .*mail-service\/\.data\/mail-service\.api-key/,
    )
    // What the status line said of the send before is over: it no longer says mail was kept.
    // (Empty, the line takes no room: Playwright finds it only among hidden elements.)
    await text(app.page.getByRole('status', { includeHidden: true })).toBe('')
  })

  it('announces a delivered mail with its address', async () => {
    await app.page.route(`${app.mail.url}/sendmail`, (route) =>
      route.fulfill({ json: { id: '<1.abc@mg.example>', message: 'Queued. Thank you.' } }),
    )
    const form = app.page.getByRole('form', { name: 'Send mail' })
    await form.getByLabel('API key').fill(apiKey)
    await form.getByRole('button', { name: 'Send' }).click()
    await text(app.status()).toBe('Mail sent to ada@example.com')
    expect(await form.textContent()).not.toContain('outbox mode')
    await app.page.unroute(`${app.mail.url}/sendmail`)
  })

  it('wrote no script error to the console', () => {
    expect(app.problems).toEqual([])
  })
})
