import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { focused, hasChromium, launchChromium } from './support/chromium.js'
import { type MicroProcess, startMicro } from './support/micro-process.js'

const apiKey = 'browser-test-key'

describe.skipIf(!hasChromium)('the web app when writes need ITEMS_APIKEY', () => {
  let items: MicroProcess
  let browser: Browser
  let page: Page
  const problems: string[] = []
  const writes: { method: string; key: string | undefined }[] = []

  beforeAll(async () => {
    items = await startMicro('items-service', { ITEMS_APIKEY: apiKey })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      // The first write and the wrong key are answered 401 on purpose.
      const provoked = /Failed to load resource: .* status of 401/.test(message.text())
      if (message.type() === 'error' && !provoked) problems.push(`console error: ${message.text()}`)
    })
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/items')) {
        writes.push({ method: request.method(), key: request.headers()['x-apikey'] })
      }
    })
    await page.goto(items.url)
  })

  afterAll(async () => {
    await browser?.close()
    await items?.stop()
  })

  const addForm = () => page.getByRole('form', { name: 'Add movie' })
  const keyForm = () => page.getByRole('form', { name: 'The items service needs its API key' })
  const text = (locator: Locator) => expect.poll(async () => (await locator.textContent())?.trim())

  it('asks for the key in the page on a 401, says when it is wrong, and retries the write', async () => {
    await addForm().getByLabel('ID').fill('tt0111161')
    await addForm().getByLabel('Name').fill('The Shawshank Redemption')
    await addForm().getByLabel('Genre').fill('Drama')
    await addForm().getByRole('button', { name: 'Add' }).click()
    const key = keyForm().getByLabel('Items API key')
    await key.waitFor({ state: 'visible' })
    expect(await key.getAttribute('type')).toBe('password')
    await expect.poll(() => focused(page)).toBe('input name=apikey')
    await page.keyboard.type('wrong-key')
    await page.keyboard.press('Enter')
    await text(keyForm().getByRole('alert')).toMatch(/^Wrong key/)
    await key.fill(apiKey)
    await page.keyboard.press('Enter')
    await keyForm().waitFor({ state: 'hidden' })
    await text(page.getByRole('status')).toBe('Added The Shawshank Redemption')
    const stored = await fetch(`${items.url}/items`).then((r) => r.json())
    expect(stored).toMatchObject([{ id: 'tt0111161' }])
    expect(writes.filter((w) => w.method === 'POST').map((w) => w.key)).toEqual([
      undefined,
      'wrong-key',
      apiKey,
    ])
    expect(await page.evaluate(() => sessionStorage.getItem('items-apikey'))).toBe(apiKey)
  })

  it('sends the kept key with later writes and never with reads', async () => {
    writes.length = 0
    await page.reload()
    await page.getByRole('button', { name: 'Delete The Shawshank Redemption' }).click()
    await page.getByRole('button', { name: 'Yes' }).click()
    await page.getByText('No movies yet').waitFor({ state: 'visible' })
    expect(await keyForm().count()).toBe(0)
    // Reads: the list, the change feed, the movie's version for If-Match; none with the key.
    expect(writes.filter((w) => w.method === 'GET').map((w) => w.key)).not.toContain(apiKey)
    expect(writes.filter((w) => w.method !== 'GET')).toEqual([{ method: 'DELETE', key: apiKey }])
  })

  it('keeps the key for the tab only', async () => {
    const other = await browser.newPage()
    await other.goto(items.url)
    expect(await other.evaluate(() => sessionStorage.getItem('items-apikey'))).toBeNull()
    await other.close()
  })

  it('wrote no script error to the console', () => {
    expect(problems).toEqual([])
  })
})
