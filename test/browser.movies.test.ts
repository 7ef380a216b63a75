import type { Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { focused, hasChromium } from './support/chromium.js'
import { hidden, text, useWebApp, visible } from './support/web-app.js'

// The movie list in the page, from the first add to the last delete, by mouse and by keyboard;
// what the page says of a refused change; and its message for a script that fails.
describe.skipIf(!hasChromium)('the web app in Chromium', () => {
  // Chromium reports each 4xx answer as a console error; 400 and 409 are provoked below.
  const app = useWebApp({ provoked: [400, 409] })

  it('shows an empty collection', async () => {
    await visible(app.page.getByText('No movies yet'))
  })

  it('adds a movie through the form and lists it', async () => {
    await app.addForm().getByLabel('ID').fill('tt0111161')
    await app.addForm().getByLabel('Name').fill('The Shawshank Redemption')
    await app.addForm().getByLabel('Genre').fill('Drama')
    await app.addForm().getByRole('button', { name: 'Add' }).click()
    await visible(app.movies().getByText('The Shawshank Redemption'))
    expect(await app.listedIds()).toEqual(['tt0111161'])
    await text(app.status()).toBe('Added The Shawshank Redemption')
    expect(await app.status().getAttribute('aria-live')).toBe('polite')
  })

  it('adds a movie with the keyboard alone', async () => {
    await app.addForm().getByLabel('ID').focus()
    await app.page.keyboard.type('tt0211915')
    await app.page.keyboard.press('Tab')
    await app.page.keyboard.type("Le Fabuleux Destin d'Amélie Poulain")
    await app.page.keyboard.press('Tab')
    await app.page.keyboard.type('Romance')
    await app.page.keyboard.press('Enter')
    await visible(app.movies().getByText("Le Fabuleux Destin d'Amélie Poulain"))
    expect(await app.listedIds()).toEqual(['tt0111161', 'tt0211915'])
  })

  it('edits the genre of a listed movie', async () => {
    await app.page.getByRole('button', { name: 'Edit The Shawshank Redemption' }).click()
    const editor = app.page.getByRole('form', { name: 'Edit The Shawshank Redemption' })
    await editor.getByLabel('Genre').fill('Crime')
    await editor.getByRole('button', { name: 'Save' }).click()
    await hidden(editor)
    await text(app.movies().getByRole('listitem').first()).toContain('Crime')
    const stored = await fetch(`${app.items.url}/items/tt0111161`).then((r) => r.json())
    expect(stored).toMatchObject({ id: 'tt0111161', genre: 'Crime' })
  })

  it('moves focus into the editor each time Edit opens, and back to Edit after Cancel and Save', async () => {
    const name = "Le Fabuleux Destin d'Amélie Poulain"
    await app.page.getByRole('button', { name: `Edit ${name}` }).focus()
    await app.page.keyboard.press('Enter')
    await expect.poll(() => focused(app.page)).toBe('input name=name')
    await app.page.keyboard.press('Escape')
    await expect.poll(() => focused(app.page)).toBe(`button Edit ${name}`)
    await app.page.keyboard.press('Enter')
    await expect.poll(() => focused(app.page)).toBe('input name=name')
    await app.page.keyboard.press('Tab')
    await app.page.keyboard.press('ControlOrMeta+a')
    await app.page.keyboard.type('Comedy')
    await app.page.keyboard.press('Enter')
    await expect.poll(() => focused(app.page)).toBe(`button Edit ${name}`)
    await text(app.status()).toBe(`Saved ${name}`)
    const stored = await fetch(`${app.items.url}/items/tt0211915`).then((r) => r.json())
    expect(stored).toMatchObject({ genre: 'Comedy' })
  })

  it('leaves the focus in the field the user moved to while the editor opened', async () => {
    const name = "Le Fabuleux Destin d'Amélie Poulain"
    // Genre is focused as soon as the editor is in the page, before its own effects have run
    // (as a quick click would be on a busy machine); two frames later, it still has the focus.
    const focusedAfter = await app.page.evaluate(
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
    await app.page.keyboard.press('Escape')
    await expect.poll(() => focused(app.page)).toBe(`button Edit ${name}`)
  })

  it('answers a whitespace-only name at the name field in plain words', async () => {
    await app.addForm().getByLabel('ID').fill('tt0000001')
    await app.addForm().getByLabel('Name').fill('   ')
    await app.addForm().getByLabel('Genre').fill('Drama')
    await app.addForm().getByRole('button', { name: 'Add' }).click()
    const field = app.addForm().getByLabel('Name')
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
    const described = await field.getAttribute('aria-describedby')
    await text(app.page.locator(`[id="${described}"]`)).toBe('Name must not be empty')
    await expect.poll(() => focused(app.page)).toBe('input name=name')
    expect(await app.listedIds()).toEqual(['tt0111161', 'tt0211915'])
  })

  it("shows the server's validation issue at its field", async () => {
    await app.addForm().getByLabel('ID').fill('.')
    await app.addForm().getByLabel('Name').fill('Dot')
    await app.addForm().getByRole('button', { name: 'Add' }).click()
    const field = app.addForm().getByLabel('ID')
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
    const described = await field.getAttribute('aria-describedby')
    await text(app.page.locator(`[id="${described}"]`)).toMatch(/^Id must not be \. or \.\./)
    expect(await app.addForm().getByLabel('Name').getAttribute('aria-invalid')).toBeNull()
  })

  it("shows the server's message for a duplicate id", async () => {
    await app.addForm().getByLabel('ID').fill('tt0111161')
    await app.addForm().getByLabel('Name').fill('Another title')
    await app.addForm().getByLabel('Genre').fill('Drama')
    await app.addForm().getByRole('button', { name: 'Add' }).click()
    await text(app.addForm().getByRole('alert')).toContain(
      "an item with id 'tt0111161' already exists",
    )
    expect(await app.listedIds()).toEqual(['tt0111161', 'tt0211915'])
  })

  it('keeps the question open after a double click on Delete, focus on No, and Yes deletes', async () => {
    await fetch(`${app.items.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'tt0133093', name: 'The Matrix', genre: 'Sci-Fi' }),
    })
    await app.page.getByRole('button', { name: 'Delete The Matrix' }).dblclick()
    const question = app.movies().getByRole('listitem').filter({ hasText: 'Delete The Matrix?' })
    // The second click of the double click lands where No now is: it must not answer.
    await app.afterRendering()
    expect(await question.isVisible()).toBe(true)
    await expect.poll(() => focused(app.page)).toBe('button No')
    await question.getByRole('button', { name: 'Yes' }).click()
    await hidden(app.movies().getByText('The Matrix'))
    expect(await app.listedIds()).toEqual(['tt0111161', 'tt0211915'])
    await text(app.status()).toBe('Deleted The Matrix')
  })

  it('deletes after a question in the row, sending one request for a double click', async () => {
    const deletes: string[] = []
    const count = (request: Request) => request.method() === 'DELETE' && deletes.push(request.url())
    app.page.on('request', count)
    await app.page.getByRole('button', { name: 'Delete The Shawshank Redemption' }).click()
    const row = app
      .movies()
      .getByRole('listitem')
      .filter({ hasText: 'Delete The Shawshank Redemption?' })
    await row.getByRole('button', { name: 'Yes' }).dblclick()
    await hidden(app.movies().getByText('The Shawshank Redemption'))
    expect(await app.listedIds()).toEqual(['tt0211915'])
    expect(deletes).toHaveLength(1)
    app.page.off('request', count)
    expect(await app.page.getByRole('alert').allTextContents()).not.toContainEqual(
      expect.stringContaining('not found'),
    )
    await text(app.status()).toBe('Deleted The Shawshank Redemption')
    // The row that took its place has the focus.
    await expect
      .poll(() => focused(app.page))
      .toBe("button Edit Le Fabuleux Destin d'Amélie Poulain")
  })

  it('deletes with the keyboard alone: No keeps the row, Yes moves focus to the heading', async () => {
    const name = "Le Fabuleux Destin d'Amélie Poulain"
    await app.page.getByRole('button', { name: `Edit ${name}` }).focus()
    await app.page.keyboard.press('Tab')
    await app.page.keyboard.press('Enter')
    await expect.poll(() => focused(app.page)).toBe('button No')
    await app.page.keyboard.press('Escape')
    await expect.poll(() => focused(app.page)).toBe(`button Delete ${name}`)
    await app.page.keyboard.press('Enter')
    await expect.poll(() => focused(app.page)).toBe('button No')
    await app.page.keyboard.press('Enter')
    await expect.poll(() => focused(app.page)).toBe(`button Delete ${name}`)
    expect(await app.listedIds()).toEqual(['tt0211915'])
    await app.page.keyboard.press('Enter')
    await expect.poll(() => focused(app.page)).toBe('button No')
    await app.page.keyboard.press('Shift+Tab')
    await expect.poll(() => focused(app.page)).toBe('button Yes')
    await app.page.keyboard.press('Enter')
    await visible(app.page.getByText('No movies yet'))
    await expect.poll(() => focused(app.page)).toBe('h2 id=movies-heading')
    expect(await app.listedIds()).toEqual([])
  })

  it('keeps the failure message hidden while the app runs', async () => {
    expect(await app.page.getByText('Something went wrong; reload the page').isHidden()).toBe(true)
  })

  it('shows "Something went wrong" when the script fails to run', async () => {
    const broken = await app.browser.newPage()
    await broken.route('**/assets/app.js', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: 'throw new Error("broken on purpose")',
      }),
    )
    await broken.goto(app.items.url)
    await visible(broken.getByText('Something went wrong; reload the page'))
    await broken.close()
  })

  it('shows "Something went wrong" on an uncaught error of the running app', async () => {
    const failing = await app.browser.newPage()
    await failing.goto(app.items.url)
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
    expect(app.problems).toEqual([])
  })
})
