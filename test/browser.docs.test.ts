import { mkdir } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Locator } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifacts, hasChromium, prefixFront } from './support/chromium.js'
import { useWebApp } from './support/web-app.js'

const apiKey = 'browser-test-key'

describe.skipIf(!hasChromium)('the API docs in Chromium', () => {
  // The page is opened below, on the docs, once it watches for breaches of the page's policy.
  const app = useWebApp({ apiKey, itemsEnv: { ITEMS_APIKEY: apiKey }, open: false })
  let front: Server

  beforeAll(async () => {
    front = await prefixFront(app.mail.url)
    // Added by the browser, not the page, so the page's policy does not apply to it.
    await app.page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
      ),
    )
    await app.page.goto(`${app.items.url}/docs`)
  })

  afterAll(() => {
    front?.close()
  })

  /** The block of one operation, found by its method and path whatever its tag or id. */
  const operation = (method: string, path: string) =>
    app.page.locator(`.opblock-${method}:has(.opblock-summary-path[data-path="${path}"])`)
  /** Opens an operation, presses "Try it out", fills its parameters, runs it: the status shown. */
  async function tryOut(block: Locator, parameters: Record<string, string> = {}) {
    await block.locator('.opblock-summary').click()
    await block.getByRole('button', { name: 'Try it out' }).click()
    for (const [name, value] of Object.entries(parameters)) {
      await block.locator(`tr[data-param-name="${name}"] input`).fill(value)
    }
    await block.getByRole('button', { name: 'Execute' }).click()
    const status = block.locator('.live-responses-table tbody .response-col_status')
    await status.waitFor({ state: 'visible' })
    return (await status.textContent())?.trim()
  }

  it("renders every operation of the service's document with Swagger UI", async () => {
    await operation('get', '/items').waitFor({ state: 'visible' })
    for (const [method, path] of [
      ['post', '/items'],
      ['get', '/items/{id}'],
      ['put', '/items/{id}'],
      ['delete', '/items/{id}'],
    ] as const) {
      expect(await operation(method, path).count(), `${method} ${path}`).toBe(1)
    }
    // In the document for tools; on the page, one line of its description instead.
    expect(await app.page.locator('.opblock-head, .opblock-options').count()).toBe(0)
    await app.page.getByText('Every path also answers HEAD').waitFor({ state: 'visible' })
  })

  it('runs GET /items from "Try it out" against the service itself', async () => {
    await fetch(`${app.items.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
      body: JSON.stringify({ id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }),
    })
    const list = operation('get', '/items')
    expect(await tryOut(list)).toBe('200')
    expect(await list.locator('.request-url').textContent()).toContain(`${app.items.url}/items`)
    expect(await list.locator('.live-responses-table').textContent()).toContain('tt0111161')
  })

  it('sends the key given through Authorize with a guarded call', async () => {
    await app.page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click()
    const dialog = app.page.locator('.dialog-ux')
    // The dialog offers every scheme of the document: the key's form is the one to fill.
    const keyForm = dialog.locator('form').filter({ hasText: 'ApiKey (apiKey)' })
    await keyForm.locator('input[type="text"], input[type="password"]').first().fill(apiKey)
    await keyForm.getByRole('button', { name: 'Apply credentials' }).click()
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click()
    expect(await tryOut(operation('delete', '/items/{id}'), { id: 'tt0111161' })).toBe('200')
    expect(await (await fetch(`${app.items.url}/items`)).json()).toEqual([])
    await mkdir(artifacts, { recursive: true })
    await app.page.screenshot({ path: new URL('api-docs.png', artifacts).pathname, fullPage: true })
  })

  it('works behind a path prefix: mail at /mail/docs loads and calls /mail/…', async () => {
    const { port } = front.address() as AddressInfo
    await app.page.goto(`http://127.0.0.1:${port}/mail/docs`)
    const health = operation('get', '/healthz')
    expect(await tryOut(health)).toBe('200')
    expect(await health.locator('.request-url').textContent()).toContain(
      `http://127.0.0.1:${port}/mail/healthz`,
    )
  })

  it("broke no rule of the page's policy and wrote no error to the console", () => {
    expect(app.problems).toEqual([])
  })
})
