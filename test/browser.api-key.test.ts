import { beforeAll, describe, expect, it } from 'vitest'
import { focused, hasChromium } from './support/chromium.js'
import { text, useWebApp } from './support/web-app.js'

const apiKey = 'browser-test-key'

describe.skipIf(!hasChromium)('the web app when writes need ITEMS_APIKEY', () => {
  // The first write and the wrong key are answered 401 on purpose.
  const app = useWebApp({ provoked: [401], itemsEnv: { ITEMS_APIKEY: apiKey } })
  const writes: { method: string; key: string | undefined }[] = []

  beforeAll(() => {
    app.page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/items')) {
        writes.push({ method: request.method(), key: request.headers()['x-apikey'] })
      }
    })
  })

  const keyForm = () => app.page.getByRole('form', { name: 'The items service needs its API key' })

  it('asks for the key in the page on a 401, says when it is wrong, and retries the write', async () => {
    await app.addForm().getByLabel('ID').fill('tt0111161')
    await app.addForm().getByLabel('Name').fill('The Shawshank Redemption')
    await app.addForm().getByLabel('Genre').fill('Drama')
    await app.addForm().getByRole('button', { name: 'Add' }).click()
    const key = keyForm().getByLabel('Items API key')
    await key.waitFor({ state: 'visible' })
    expect(await key.getAttribute('type')).toBe('password')
    await expect.poll(() => focused(app.page)).toBe('input name=apikey')
    await app.page.keyboard.type('wrong-key')
    await app.page.keyboard.press('Enter')
    await text(keyForm().getByRole('alert')).toMatch(/^Wrong key/)
    await key.fill(apiKey)
    await app.page.keyboard.press('Enter')
    await keyForm().waitFor({ state: 'hidden' })
    await text(app.status()).toBe('Added The Shawshank Redemption')
    const stored = await fetch(`${app.items.url}/items`).then((r) => r.json())
    expect(stored).toMatchObject([{ id: 'tt0111161' }])
    expect(writes.filter((w) => w.method === 'POST').map((w) => w.key)).toEqual([
      undefined,
      'wrong-key',
      apiKey,
    ])
    expect(await app.page.evaluate(() => sessionStorage.getItem('items-apikey'))).toBe(apiKey)
  })

  it('sends the kept key with later writes and never with reads', async () => {
    writes.length = 0
    await app.page.reload()
    await app.page.getByRole('button', { name: 'Delete The Shawshank Redemption' }).click()
    await app.page.getByRole('button', { name: 'Yes' }).click()
    await app.page.getByText('No movies yet').waitFor({ state: 'visible' })
    expect(await keyForm().count()).toBe(0)
    // Reads: the list, the change feed, the movie's version for If-Match; none with the key.
    expect(writes.filter((w) => w.method === 'GET').map((w) => w.key)).not.toContain(apiKey)
    expect(writes.filter((w) => w.method !== 'GET')).toEqual([{ method: 'DELETE', key: apiKey }])
  })

  it('keeps the key for the tab only', async () => {
    const other = await app.browser.newPage()
    await other.goto(app.items.url)
    expect(await other.evaluate(() => sessionStorage.getItem('items-apikey'))).toBeNull()
    await other.close()
  })

  it('wrote no script error to the console', () => {
    expect(app.problems).toEqual([])
  })
})
