import { readFile } from 'node:fs/promises'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { focused, hasChromium, launchChromium } from './support/chromium.js'
import { type MicroProcess, startMicro } from './support/micro-process.js'

describe.skipIf(!hasChromium)('the messages of the web app', () => {
  let items: MicroProcess
  let mail: MicroProcess
  let browser: Browser
  let page: Page
  const problems: string[] = []

  beforeAll(async () => {
    // No API_KEYS: the mail-service makes its key and keeps it in its DATA_DIR, as it does
    // for someone who starts it for the first time.
    mail = await startMicro('mail-service', { MAIL_TRANSPORT: 'outbox' })
    items = await startMicro('items-service', { MAIL_SERVICE_URL: mail.url })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      // The duplicate ids (409) and the wrong mail key (401) are provoked below.
      const provoked = /Failed to load resource: .* status of (401|409)/.test(message.text())
      if (message.type() === 'error' && !provoked) problems.push(`console error: ${message.text()}`)
    })
    await page.goto(items.url)
    await page.getByText('No movies yet').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await items?.stop()
    await mail?.stop()
  })

  const text = (locator: Locator) => expect.poll(async () => (await locator.textContent())?.trim())
  const addForm = () => page.getByRole('form', { name: 'Add movie' })
  const mailForm = () => page.getByRole('form', { name: 'Send mail' })
  const status = () => page.getByRole('status')
  /** A form's message; hidden while empty, so found among hidden elements too. */
  const alert = (form: Locator) => form.getByRole('alert', { includeHidden: true })
  const matrix = { id: 'tt0133093', name: 'The Matrix', genre: 'Sci-Fi' }
  const duplicate = "an item with id 'tt0133093' already exists"

  const add = async ({ id, name, genre }: typeof matrix) => {
    await addForm().getByLabel('ID').fill(id)
    await addForm().getByLabel('Name').fill(name)
    await addForm().getByLabel('Genre').fill(genre)
    await addForm().getByRole('button', { name: 'Add' }).click()
  }

  it("takes a refused add's message away once a later edit succeeds", async () => {
    await add(matrix)
    await text(status()).toBe('Added The Matrix')
    await add({ ...matrix, name: 'The Matrix again' })
    await text(alert(addForm())).toBe(duplicate)
    await page.getByRole('button', { name: 'Edit The Matrix' }).click()
    const editor = page.getByRole('form', { name: 'Edit The Matrix' })
    await editor.getByLabel('Genre').fill('Action')
    await editor.getByRole('button', { name: 'Save' }).click()
    await text(status()).toBe('Saved The Matrix')
    await text(alert(addForm())).toBe('')
  })

  it('takes it away when the user edits a field of the form', async () => {
    await addForm().getByRole('button', { name: 'Add' }).click()
    await text(alert(addForm())).toBe(duplicate)
    await addForm().getByLabel('ID').pressSequentially('0')
    await text(alert(addForm())).toBe('')
  })

  it('takes it away once the movie is deleted', async () => {
    await addForm().getByLabel('ID').fill(matrix.id)
    await addForm().getByRole('button', { name: 'Add' }).click()
    await text(alert(addForm())).toBe(duplicate)
    await page.getByRole('button', { name: 'Delete The Matrix' }).click()
    await page.getByRole('button', { name: 'Yes' }).click()
    await text(status()).toBe('Deleted The Matrix')
    await text(alert(addForm())).toBe('')
  })

  it("takes a field's message away when that field is edited, leaving the others", async () => {
    await addForm().getByLabel('ID').fill('')
    await addForm().getByLabel('Name').fill('')
    await addForm().getByRole('button', { name: 'Add' }).click()
    const id = addForm().getByLabel('ID')
    const name = addForm().getByLabel('Name')
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true')
    expect(await id.getAttribute('aria-invalid')).toBe('true')
    await id.fill(matrix.id)
    await expect.poll(() => id.getAttribute('aria-invalid')).toBeNull()
    expect(await name.getAttribute('aria-invalid')).toBe('true')
  })

  it("says under the mail form's key field where the key is", async () => {
    const key = mailForm().getByLabel('API key')
    const describedBy = (await key.getAttribute('aria-describedby')) ?? ''
    expect(describedBy).not.toBe('')
    const hintId = describedBy.split(' ').at(-1)
    const hint = page.locator(`[id="${hintId}"]`)
    await text(hint).toContain('framed block at every start')
    await text(hint).toContain('mail-service/.data/mail-service.api-key')
    await text(hint).toContain('API_KEYS')
  })

  it('says a refused mail key was refused and where the right one is', async () => {
    await mailForm().getByLabel('API key').fill('wrong-key')
    await mailForm().getByLabel('Email').fill('ada@example.com')
    await mailForm().getByLabel('Name').fill('Ada')
    await mailForm().getByRole('button', { name: 'Send' }).click()
    const refusal = alert(mailForm())
    await text(refusal).toMatch(/^The mail service refused this API key\./)
    await text(refusal).toContain('framed block')
    await text(refusal).toContain('mail-service/.data/mail-service.api-key')
    const key = mailForm().getByLabel('API key')
    expect(await key.getAttribute('aria-invalid')).toBe('true')
    await expect.poll(() => focused(page)).toBe('input name=apikey')
  })

  it('sends with the key the mail-service printed and kept where the page said', async () => {
    const printed = /^={72}\n.*kept in (\S+)\n {2}x-apikey: (\S+)\n.*\n={72}$/m.exec(
      mail.entry.stdout,
    )
    expect(printed).not.toBeNull()
    const [, file = '', key = ''] = printed ?? []
    expect(file.endsWith('/mail-service.api-key')).toBe(true)
    expect((await readFile(file, 'utf8')).trim()).toBe(key)
    await mailForm().getByLabel('API key').fill(key)
    await text(alert(mailForm())).toBe('')
    expect(await mailForm().getByLabel('API key').getAttribute('aria-invalid')).toBeNull()
    await mailForm().getByRole('button', { name: 'Send' }).click()
    await text(mailForm().locator('.mail-id')).toMatch(/@outbox\.local>$/)
  })

  it('wrote no script error to the console', () => {
    expect(problems).toEqual([])
  })
})
