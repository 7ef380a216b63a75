import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MicroProcess, startMicro } from './support/micro-process.js'

const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium'
const hasChromium = existsSync(chromePath)
if (!hasChromium) {
  console.log(
    `browser test skipped: no Chromium at ${chromePath} (install Debian's chromium or set CHROME_PATH)`,
  )
}

const artifacts = new URL('../test-artifacts/', import.meta.url)
const apiKey = 'browser-test-key'
const launchChromium = () =>
  chromium.launch({
    executablePath: chromePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  })

describe.skipIf(!hasChromium)('the web app in Chromium', () => {
  let items: MicroProcess
  let mail: MicroProcess
  let browser: Browser
  let page: Page
  const problems: string[] = []

  beforeAll(async () => {
    mail = await startMicro('mail-service', { API_KEYS: apiKey, MAIL_TRANSPORT: 'outbox' })
    items = await startMicro('items-service', { MAIL_SERVICE_URL: mail.url })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      // Chromium reports each 4xx answer as a console error; 401 and 409 are provoked below.
      const provoked = /Failed to load resource: .* status of (401|409)/.test(message.text())
      if (message.type() === 'error' && !provoked) problems.push(`console error: ${message.text()}`)
    })
    await page.goto(items.url)
  })

  afterAll(async () => {
    await browser?.close()
    await items?.stop()
    await mail?.stop()
  })

  const visible = (locator: Locator) => locator.waitFor({ state: 'visible' })
  const hidden = (locator: Locator) => locator.waitFor({ state: 'hidden' })
  const text = (locator: Locator) => expect.poll(async () => (await locator.textContent())?.trim())
  const addForm = () => page.getByRole('form', { name: 'Add movie' })
  const movies = () => page.getByRole('list', { name: 'Movies' })
  const listedIds = async () => {
    const response = await fetch(`${items.url}/items`)
    return ((await response.json()) as { id: string }[]).map((item) => item.id)
  }

  it('shows an empty collection', async () => {
    await visible(page.getByText('No movies yet'))
  })

  it('adds a movie through the form and lists it', async () => {
    await addForm().getByLabel('ID').fill('tt0111161')
    await addForm().getByLabel('Name').fill('The Shawshank Redemption')
    await addForm().getByLabel('Genre').fill('Drama')
    await addForm().getByRole('button', { name: 'Add' }).click()
    await visible(movies().getByText('The Shawshank Redemption'))
    expect(await listedIds()).toEqual(['tt0111161'])
  })

  it('adds a movie with the keyboard alone', async () => {
    await addForm().getByLabel('ID').focus()
    await page.keyboard.type('tt0211915')
    await page.keyboard.press('Tab')
    await page.keyboard.type("Le Fabuleux Destin d'Amélie Poulain")
    await page.keyboard.press('Tab')
    await page.keyboard.type('Romance')
    await page.keyboard.press('Enter')
    await visible(movies().getByText("Le Fabuleux Destin d'Amélie Poulain"))
    expect(await listedIds()).toEqual(['tt0111161', 'tt0211915'])
  })

  it('edits the genre of a listed movie', async () => {
    await page.getByRole('button', { name: 'Edit The Shawshank Redemption' }).click()
    const editor = page.getByRole('form', { name: 'Edit The Shawshank Redemption' })
    await editor.getByLabel('Genre').fill('Crime')
    await editor.getByRole('button', { name: 'Save' }).click()
    await hidden(editor)
    await text(movies().getByRole('listitem').first()).toContain('Crime')
    const stored = await fetch(`${items.url}/items/tt0111161`).then((r) => r.json())
    expect(stored).toMatchObject({ id: 'tt0111161', genre: 'Crime' })
  })

  it("shows the server's message for a duplicate id", async () => {
    await addForm().getByLabel('ID').fill('tt0111161')
    await addForm().getByLabel('Name').fill('Another title')
    await addForm().getByLabel('Genre').fill('Drama')
    await addForm().getByRole('button', { name: 'Add' }).click()
    await text(addForm().getByRole('alert')).toContain("an item with id 'tt0111161' already exists")
    expect(await listedIds()).toEqual(['tt0111161', 'tt0211915'])
  })

  it('sends a mail through the mail-service in outbox mode and shows its id', async () => {
    const form = page.getByRole('form', { name: 'Send mail' })
    await form.getByLabel('API key').fill(apiKey)
    await form.getByLabel('Email').fill('ada@example.com')
    await form.getByLabel('Name').fill('Ada')
    await form.getByRole('button', { name: 'Send' }).click()
    const sentId = form.locator('.mail-id')
    await text(sentId).toMatch(/^<\d+\.[0-9a-f]+@outbox\.local>$/)
    await text(form).toContain('Queued. Thank you.')
    const outbox = await fetch(`${mail.url}/outbox`, { headers: { 'x-apikey': apiKey } })
    expect(JSON.stringify(await outbox.json())).toContain('ada@example.com')
    await mkdir(artifacts, { recursive: true })
    await page.screenshot({ path: new URL('web-app.png', artifacts).pathname, fullPage: true })
  })

  it('shows the mail-service error for a wrong API key', async () => {
    const form = page.getByRole('form', { name: 'Send mail' })
    await form.getByLabel('API key').fill('wrong-key')
    await form.getByRole('button', { name: 'Send' }).click()
    await text(form.getByRole('alert')).toBe('Unauthorized')
  })

  it('deletes a movie', async () => {
    await page.getByRole('button', { name: 'Delete The Shawshank Redemption' }).click()
    await hidden(movies().getByText('The Shawshank Redemption'))
    expect(await listedIds()).toEqual(['tt0211915'])
  })

  it('wrote no script error to the console', () => {
    expect(problems).toEqual([])
  })
})

/** A Deta-style front on a free port: `/mail/…` goes to `target` with the prefix taken off. */
async function prefixFront(target: string): Promise<Server> {
  const front = createServer((request, response) => {
    const path = request.url?.startsWith('/mail/') ? request.url.slice('/mail'.length) : null
    if (!path) return response.writeHead(404).end()
    const { hostname, port } = new URL(target)
    const { method, headers } = request
    const upstream = httpRequest({ hostname, port, path, method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  return front
}

describe.skipIf(!hasChromium)('the API docs in Chromium', () => {
  let items: MicroProcess
  let mail: MicroProcess
  let front: Server
  let browser: Browser
  let page: Page
  const problems: string[] = []

  beforeAll(async () => {
    items = await startMicro('items-service', { ITEMS_APIKEY: apiKey })
    mail = await startMicro('mail-service', { API_KEYS: apiKey, MAIL_TRANSPORT: 'outbox' })
    front = await prefixFront(mail.url)
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
    })
    // Added by the browser, not the page, so the page's policy does not apply to it.
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
      ),
    )
    await page.goto(`${items.url}/docs`)
  })

  afterAll(async () => {
    await browser?.close()
    front?.close()
    await items?.stop()
    await mail?.stop()
  })

  /** The block of one operation, found by its method and path whatever its tag or id. */
  const operation = (method: string, path: string) =>
    page.locator(`.opblock-${method}:has(.opblock-summary-path[data-path="${path}"])`)
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
  })

  it('runs GET /items from "Try it out" against the service itself', async () => {
    await fetch(`${items.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
      body: JSON.stringify({ id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }),
    })
    const list = operation('get', '/items')
    expect(await tryOut(list)).toBe('200')
    expect(await list.locator('.request-url').textContent()).toContain(`${items.url}/items`)
    expect(await list.locator('.live-responses-table').textContent()).toContain('tt0111161')
  })

  it('sends the key given through Authorize with a guarded call', async () => {
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click()
    const dialog = page.locator('.dialog-ux')
    await dialog.locator('input[type="text"], input[type="password"]').first().fill(apiKey)
    await dialog.getByRole('button', { name: 'Apply credentials' }).click()
    await dialog.getByRole('button', { name: 'Close', exact: true }).click()
    expect(await tryOut(operation('delete', '/items/{id}'), { id: 'tt0111161' })).toBe('200')
    expect(await (await fetch(`${items.url}/items`)).json()).toEqual([])
    await mkdir(artifacts, { recursive: true })
    await page.screenshot({ path: new URL('api-docs.png', artifacts).pathname, fullPage: true })
  })

  it('works behind a path prefix: mail at /mail/docs loads and calls /mail/…', async () => {
    const { port } = front.address() as AddressInfo
    await page.goto(`http://127.0.0.1:${port}/mail/docs`)
    const health = operation('get', '/healthz')
    expect(await tryOut(health)).toBe('200')
    expect(await health.locator('.request-url').textContent()).toContain(
      `http://127.0.0.1:${port}/mail/healthz`,
    )
  })

  it("broke no rule of the page's policy and wrote no error to the console", () => {
    expect(problems).toEqual([])
  })
})
