// The picture of the page in the README (docs/web-app.png): a few movies, a mail kept in the
// outbox, no error. Every run checks that state and keeps the picture in test-artifacts/;
// UPDATE_SCREENSHOT=1 writes it over docs/web-app.png as well.
import { mkdir, writeFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { artifacts, hasChromium } from './support/chromium.js'
import { useWebApp } from './support/web-app.js'

const apiKey = 'screenshot-api-key'
const movies = [
  { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' },
  { id: 'tt0211915', name: "Le Fabuleux Destin d'Amélie Poulain", genre: 'Romance' },
  { id: 'tt0133093', name: 'The Matrix', genre: 'Sci-Fi' },
]

describe.skipIf(!hasChromium)('the picture of the web app', () => {
  // The page is opened once the movies are in.
  const app = useWebApp({ apiKey, open: false })

  beforeAll(async () => {
    for (const movie of movies) {
      await fetch(`${app.items.url}/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(movie),
      })
    }
    await app.page.goto(app.items.url)
  })

  it('shows the movies and a sent mail, and no error', async () => {
    await app.page.getByText('The Matrix').waitFor()
    const form = app.page.getByRole('form', { name: 'Send mail' })
    await form.getByLabel('API key').fill(apiKey)
    await form.getByLabel('Email').fill('ada@example.com')
    await form.getByLabel('Name').fill('Ada')
    await form.getByRole('button', { name: 'Send' }).click()
    await form.locator('.mail-id').waitFor()
    await app.status().getByText('Mail kept in the outbox').waitFor()
    expect(await app.page.locator('.message.error:not(:empty)').count()).toBe(0)
    expect(await app.page.locator('[aria-invalid="true"]').count()).toBe(0)
    expect(app.problems).toEqual([])
    // Nothing focused: no focus ring in the picture.
    await app.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await mkdir(artifacts, { recursive: true })
    const picture = await app.page.screenshot({
      path: new URL('web-app.docs.png', artifacts).pathname,
      fullPage: true,
    })
    if (process.env.UPDATE_SCREENSHOT === '1') {
      await writeFile(new URL('../docs/web-app.png', import.meta.url), picture)
    }
  })
})
