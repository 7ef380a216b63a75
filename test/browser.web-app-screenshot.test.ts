// The picture of the page in the README (docs/web-app.png): a few movies, a mail kept in the
// outbox, no error. Every run checks that state and keeps the picture in test-artifacts/;
// UPDATE_SCREENSHOT=1 writes it over docs/web-app.png as well.
import { mkdir, writeFile } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifacts, hasChromium, launchChromium } from './support/chromium.js'
import { type MicroProcess, startMicro } from './support/micro-process.js'

const apiKey = 'screenshot-key'
const movies = [
  { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' },
  { id: 'tt0211915', name: "Le Fabuleux Destin d'Amélie Poulain", genre: 'Romance' },
  { id: 'tt0133093', name: 'The Matrix', genre: 'Sci-Fi' },
]

describe.skipIf(!hasChromium)('the picture of the web app', () => {
  let items: MicroProcess
  let mail: MicroProcess
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    mail = await startMicro('mail-service', { API_KEYS: apiKey, MAIL_TRANSPORT: 'outbox' })
    items = await startMicro('items-service', { MAIL_SERVICE_URL: mail.url })
    for (const movie of movies) {
      await fetch(`${items.url}/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(movie),
      })
    }
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
    await page.goto(items.url)
  })

  afterAll(async () => {
    await browser?.close()
    await items?.stop()
    await mail?.stop()
  })

  it('shows the movies and a sent mail, and no error', async () => {
    await page.getByText('The Matrix').waitFor()
    const form = page.getByRole('form', { name: 'Send mail' })
    await form.getByLabel('API key').fill(apiKey)
    await form.getByLabel('Email').fill('ada@example.com')
    await form.getByLabel('Name').fill('Ada')
    await form.getByRole('button', { name: 'Send' }).click()
    await form.locator('.mail-id').waitFor()
    await page.getByRole('status').getByText('Mail kept in the outbox').waitFor()
    expect(await page.locator('.message.error:not(:empty)').count()).toBe(0)
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(0)
    // Nothing focused: no focus ring in the picture.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await mkdir(artifacts, { recursive: true })
    const picture = await page.screenshot({
      path: new URL('web-app.docs.png', artifacts).pathname,
      fullPage: true,
    })
    if (process.env.UPDATE_SCREENSHOT === '1') {
      await writeFile(new URL('../docs/web-app.png', import.meta.url), picture)
    }
  })
})
