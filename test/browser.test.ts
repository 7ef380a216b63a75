import { mkdir } from 'node:fs/promises'
import type { Browser, Locator, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifacts, focused, hasChromium, launchChromium } from './support/chromium.js'
import { type MicroProcess, startMicro } from './support/micro-process.js'

const apiKey = 'browser-test-key'

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
      // Chromium reports each 4xx answer as a console error; 400, 401 and 409 are provoked below.
      const provoked = /Failed to load resource: .* status of (400|401|409)/.test(message.text())
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
  const status = () => page.getByRole('status')
  /** Resolves once the page has drawn twice: what a click changed is on screen by then. */
  const afterRendering = () =>
    page.evaluate(
      () => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))),
    )

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
    await text(status()).toBe('Added The Shawshank Redemption')
    expect(await status().getAttribute('aria-live')).toBe('polite')
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

  it('moves focus into the editor each time Edit opens, and back to Edit after Cancel and Save', async () => {
    const name = "Le Fabuleux Destin d'Amélie Poulain"
    await page.getByRole('button', { name: `Edit ${name}` }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('input name=name')
    await page.keyboard.press('Escape')
    await expect.poll(() => focused(page)).toBe(`button Edit ${name}`)
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('input name=name')
    await page.keyboard.press('Tab')
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('Comedy')
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe(`button Edit ${name}`)
    await text(status()).toBe(`Saved ${name}`)
    const stored = await fetch(`${items.url}/items/tt0211915`).then((r) => r.json())
    expect(stored).toMatchObject({ genre: 'Comedy' })
  })

  it('leaves the focus in the field the user moved to while the editor opened', async () => {
    const name = "Le Fabuleux Destin d'Amélie Poulain"
    // Genre is focused as soon as the editor is in the page, before its own effects have run
    // (as a quick click would be on a busy machine); two frames later, it still has the focus.
    const focusedAfter = await page.evaluate(
      (name) =>
        new Promise<string | null>((resolve) => {
          const observer = new MutationObserver(() => {
            const genre = document.querySelector<HTMLInputElement>(
              `form[aria-label="Edit ${name}"] input[name=genre]`,
            )
            if (!genre) return
            observer.disconnect()
            genre.focus()
            requestAnimationFrame(() =>
              requestAnimationFrame(() =>
                setTimeout(() => resolve(document.activeElement?.getAttribute('name') ?? null)),
              ),
            )
          })
          observer.observe(document.body, { childList: true, subtree: true })
          document.querySelector<HTMLButtonElement>(`button[aria-label="Edit ${name}"]`)?.click()
        }),
      name,
    )
    expect(focusedAfter).toBe('genre')
    await page.keyboard.press('Escape')
    await expect.poll(() => focused(page)).toBe(`button Edit ${name}`)
  })

  it('answers a whitespace-only name at the name field in plain words', async () => {
    await addForm().getByLabel('ID').fill('tt0000001')
    await addForm().getByLabel('Name').fill('   ')
    await addForm().getByLabel('Genre').fill('Drama')
    await addForm().getByRole('button', { name: 'Add' }).click()
    const field = addForm().getByLabel('Name')
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
    const described = await field.getAttribute('aria-describedby')
    await text(page.locator(`[id="${described}"]`)).toBe('Name must not be empty')
    await expect.poll(() => focused(page)).toBe('input name=name')
    expect(await listedIds()).toEqual(['tt0111161', 'tt0211915'])
  })

  it("shows the server's validation issue at its field", async () => {
    await addForm().getByLabel('ID').fill('.')
    await addForm().getByLabel('Name').fill('Dot')
    await addForm().getByRole('button', { name: 'Add' }).click()
    const field = addForm().getByLabel('ID')
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
    const described = await field.getAttribute('aria-describedby')
    await text(page.locator(`[id="${described}"]`)).toMatch(/^Id must not be \. or \.\./)
    expect(await addForm().getByLabel('Name').getAttribute('aria-invalid')).toBeNull()
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
    const outboxNote = 'Mail kept in the outbox: nothing was delivered (outbox mode)'
    await text(status()).toBe(outboxNote)
    await text(form).toContain(outboxNote)
    const outbox = await fetch(`${mail.url}/outbox`, { headers: { 'x-apikey': apiKey } })
    expect(JSON.stringify(await outbox.json())).toContain('ada@example.com')
    await mkdir(artifacts, { recursive: true })
    await page.screenshot({ path: new URL('web-app.png', artifacts).pathname, fullPage: true })
  })

  it('says a wrong API key was refused, and where the right one is', async () => {
    const form = page.getByRole('form', { name: 'Send mail' })
    await form.getByLabel('API key').fill('wrong-key')
    await form.getByRole('button', { name: 'Send' }).click()
    await text(form.getByRole('alert')).toMatch(
      /^The mail service refused this API key\. .*mail-service\/\.data\/mail-service\.api-key/,
    )
    // What the status line said of the send before is over: it no longer says mail was kept.
    // (Empty, the line takes no room: Playwright finds it only among hidden elements.)
    await text(page.getByRole('status', { includeHidden: true })).toBe('')
  })

  it('announces a delivered mail with its address', async () => {
    await page.route(`${mail.url}/sendmail`, (route) =>
      route.fulfill({ json: { id: '<1.abc@mg.example>', message: 'Queued. Thank you.' } }),
    )
    const form = page.getByRole('form', { name: 'Send mail' })
    await form.getByLabel('API key').fill(apiKey)
    await form.getByRole('button', { name: 'Send' }).click()
    await text(status()).toBe('Mail sent to ada@example.com')
    expect(await form.textContent()).not.toContain('outbox mode')
    await page.unroute(`${mail.url}/sendmail`)
  })

  it('keeps the question open after a double click on Delete, focus on No, and Yes deletes', async () => {
    await fetch(`${items.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'tt0133093', name: 'The Matrix', genre: 'Sci-Fi' }),
    })
    await page.getByRole('button', { name: 'Delete The Matrix' }).dblclick()
    const question = movies().getByRole('listitem').filter({ hasText: 'Delete The Matrix?' })
    // The second click of the double click lands where No now is: it must not answer.
    await afterRendering()
    expect(await question.isVisible()).toBe(true)
    await expect.poll(() => focused(page)).toBe('button No')
    await question.getByRole('button', { name: 'Yes' }).click()
    await hidden(movies().getByText('The Matrix'))
    expect(await listedIds()).toEqual(['tt0111161', 'tt0211915'])
    await text(status()).toBe('Deleted The Matrix')
  })

  it('deletes after a question in the row, sending one request for a double click', async () => {
    const deletes: string[] = []
    const count = (request: Request) => request.method() === 'DELETE' && deletes.push(request.url())
    page.on('request', count)
    await page.getByRole('button', { name: 'Delete The Shawshank Redemption' }).click()
    const row = movies()
      .getByRole('listitem')
      .filter({ hasText: 'Delete The Shawshank Redemption?' })
    await row.getByRole('button', { name: 'Yes' }).dblclick()
    await hidden(movies().getByText('The Shawshank Redemption'))
    expect(await listedIds()).toEqual(['tt0211915'])
    expect(deletes).toHaveLength(1)
    page.off('request', count)
    expect(await page.getByRole('alert').allTextContents()).not.toContainEqual(
      expect.stringContaining('not found'),
    )
    await text(status()).toBe('Deleted The Shawshank Redemption')
    // The row that took its place has the focus.
    await expect.poll(() => focused(page)).toBe("button Edit Le Fabuleux Destin d'Amélie Poulain")
  })

  it('deletes with the keyboard alone: No keeps the row, Yes moves focus to the heading', async () => {
    const name = "Le Fabuleux Destin d'Amélie Poulain"
    await page.getByRole('button', { name: `Edit ${name}` }).focus()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('button No')
    await page.keyboard.press('Escape')
    await expect.poll(() => focused(page)).toBe(`button Delete ${name}`)
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('button No')
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe(`button Delete ${name}`)
    expect(await listedIds()).toEqual(['tt0211915'])
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('button No')
    await page.keyboard.press('Shift+Tab')
    await expect.poll(() => focused(page)).toBe('button Yes')
    await page.keyboard.press('Enter')
    await visible(page.getByText('No movies yet'))
    await expect.poll(() => focused(page)).toBe('h2 id=movies-heading')
    expect(await listedIds()).toEqual([])
  })

  it('keeps the failure message hidden while the app runs', async () => {
    expect(await page.getByText('Something went wrong; reload the page').isHidden()).toBe(true)
  })

  it('shows "Something went wrong" when the script fails to run', async () => {
    const broken = await browser.newPage()
    await broken.route('**/assets/app.js', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: 'throw new Error("broken on purpose")',
      }),
    )
    await broken.goto(items.url)
    await visible(broken.getByText('Something went wrong; reload the page'))
    await broken.close()
  })

  it('shows "Something went wrong" on an uncaught error of the running app', async () => {
    const failing = await browser.newPage()
    await failing.goto(items.url)
    await visible(failing.getByRole('form', { name: 'Add movie' }))
    const message = failing.getByText('Something went wrong; reload the page')
    expect(await message.isHidden()).toBe(true)
    await failing.evaluate(() => {
      setTimeout(() => Promise.reject(new Error('failing on purpose')))
    })
    await visible(message)
    await failing.close()
  })

  it('wrote no script error to the console', () => {
    expect(problems).toEqual([])
  })
})
