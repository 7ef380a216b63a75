import { readFile } from 'node:fs/promises'
import type { Locator } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { focused, hasChromium } from './support/chromium.js'
import { text, useWebApp } from './support/web-app.js'

describe.skipIf(!hasChromium)('the messages of the web app', () => {
  // No apiKey: the mail-service makes its key and keeps it in its DATA_DIR, as it does for
  // someone who starts it for the first time. The duplicate ids (409) and the wrong mail key
  // (401) are provoked below.
  const app = useWebApp({ provoked: [401, 409] })
  beforeAll(() => app.page.getByText('No movies yet').waitFor())

  const mailForm = () => app.page.getByRole('form', { name: 'Send mail' })
  /** A form's message; hidden while empty, so found among hidden elements too. */
  const alert = (form: Locator) => form.getByRole('alert', { includeHidden: true })
  const matrix = { id: 'tt0133093', name: 'The Matrix', genre: 'Sci-Fi' }
  const duplicate = "an item with id 'tt0133093' already exists"

  const add = async ({ id, name, genre }: typeof matrix) => {
    await app.addForm().getByLabel('ID').fill(id)
    await app.addForm().getByLabel('Name').fill(name)
    await app.addForm().getByLabel('Genre').fill(genre)
    await app.addForm().getByRole('button', { name: 'Add' }).click()
  }

  it("takes a refused add's message away once a later edit succeeds", async () => {
    await add(matrix)
    await text(app.status()).toBe('Added The Matrix')
    await add({ ...matrix, name: 'The Matrix again' })
    await text(alert(app.addForm())).toBe(duplicate)
    await app.page.getByRole('button', { name: 'Edit The Matrix' }).click()
    const editor = app.page.getByRole('form', { name: 'Edit The Matrix' })
    await editor.getByLabel('Genre').fill('Action')
    await editor.getByRole('button', { name: 'Save' }).click()
    await text(app.status()).toBe('Saved The Matrix')
    await text(alert(app.addForm())).toBe('')
  })

  it('takes it away when the user edits a field of the form', async () => {
    await app.addForm().getByRole('button', { name: 'Add' }).click()
    await text(alert(app.addForm())).toBe(duplicate)
    await app.addForm().getByLabel('ID').pressSequentially('0')
    await text(alert(app.addForm())).toBe('')
  })

  it('takes it away once the movie is deleted', async () => {
    await app.addForm().getByLabel('ID').fill(matrix.id)
    await app.addForm().getByRole('button', { name: 'Add' }).click()
    await text(alert(app.addForm())).toBe(duplicate)
    await app.page.getByRole('button', { name: 'Delete The Matrix' }).click()
    await app.page.getByRole('button', { name: 'Yes' }).click()
    await text(app.status()).toBe('Deleted The Matrix')
    await text(alert(app.addForm())).toBe('')
  })

  it("takes a field's message away when that field is edited, leaving the others", async () => {
    await app.addForm().getByLabel('ID').fill('')
    await app.addForm().getByLabel('Name').fill('')
    await app.addForm().getByRole('button', { name: 'Add' }).click()
    const id = app.addForm().getByLabel('ID')
    const name = app.addForm().getByLabel('Name')
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
    const hint = app.page.locator(`[id="${hintId}"]`)
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
    await expect.poll(() => focused(app.page)).toBe('input name=apikey')
  })

  it('sends with the key the mail-service printed and kept where the page said', async () => {
    const printed = /^={72}\n.*kept in (\S+)\n {2}x-apikey: (\S+)\n.*\n={72}$/m.exec(
      app.mail.entry.stdout,
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
    expect(app.problems).toEqual([])
  })
})
