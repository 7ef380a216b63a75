import { type ChildProcess, spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, WranglerDev } from '@movies-and-mail/test-kit'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, launchChromium } from './support/chromium.js'
import { type MicroProcess, startMicro } from './support/micro-process.js'

const root = fileURLToPath(new URL('../', import.meta.url))

/** The files the tutorial has the reader write: its fenced blocks that name a path. */
async function tutorialFiles(): Promise<Map<string, string>> {
  const markdown = await readFile(join(root, 'docs/tutorial.md'), 'utf8')
  const files = new Map<string, string>()
  for (const [, path, body] of markdown.matchAll(/^```\w+ (\S+)\n([\s\S]*?)^```$/gm)) {
    files.set(path as string, body as string)
  }
  return files
}

const movie = { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }

describe.skipIf(!hasChromium)('the tutorial, its app run as written', () => {
  let dir: string
  let app: ChildProcess
  let appUrl: string
  let browser: Browser
  let items: MicroProcess | undefined

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tutorial-'))
    const files = await tutorialFiles()
    expect([...files.keys()].sort()).toEqual([
      'my-app/app.js',
      'my-app/index.html',
      'my-app/serve.mjs',
    ])
    for (const [path, body] of files) {
      await mkdir(dirname(join(dir, path)), { recursive: true })
      await writeFile(join(dir, path), body)
    }
    // `cp -r packages/items-client/dist my-app/items-client`, as the tutorial says.
    await cp(join(root, 'packages/items-client/dist'), join(dir, 'my-app/items-client'), {
      recursive: true,
    })
    const port = await freePort()
    app = spawn(process.execPath, ['my-app/serve.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const printed = await new Promise<string>((resolve) =>
      app.stdout?.setEncoding('utf8').once('data', resolve),
    )
    expect(printed.trim()).toBe(`my-app on http://localhost:${port}/`)
    appUrl = `http://localhost:${port}`
    browser = await launchChromium()
  })
  afterEach(async () => {
    await items?.stop()
    items = undefined
  })
  afterAll(async () => {
    await browser?.close()
    app?.kill()
    await rm(dir, { recursive: true, force: true })
  })

  /** The app in a new page, using the service at `api`. */
  async function openApp(api: string): Promise<Page> {
    const page = await browser.newPage()
    await page.goto(`${appUrl}/?api=${encodeURIComponent(api)}`)
    return page
  }
  const listed = (page: Page) =>
    expect.poll(async () => (await page.locator('#movies li').allTextContents()).join(' | '))
  const add = async (page: Page, id: string, name: string, genre: string) => {
    const form = page.locator('#add')
    await form.locator('[name=id]').fill(id)
    await form.locator('[name=name]').fill(name)
    await form.locator('[name=genre]').fill(genre)
    await form.getByRole('button', { name: 'Add' }).click()
  }
  const create = (api: string, body: object) =>
    fetch(`${api}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('lists, and is refused a create until CORS_ORIGINS names its origin', async () => {
    items = await startMicro('items-service')
    await create(items.url, movie)
    const page = await openApp(items.url)
    await listed(page).toBe('The Shawshank Redemption (Drama)')
    await add(page, 'tt0068646', 'The Godfather', 'Crime')
    await expect
      .poll(() => page.locator('#news').textContent())
      .toBe(`refused: a write from ${appUrl} needs that origin in CORS_ORIGINS`)
    await listed(page).toBe('The Shawshank Redemption (Drama)')
    await page.close()
  })

  it('with CORS_ORIGINS, adds, and follows what another client creates, live', async () => {
    items = await startMicro('items-service', { CORS_ORIGINS: appUrl })
    await create(items.url, movie)
    const page = await openApp(items.url)
    await listed(page).toBe('The Shawshank Redemption (Drama)')
    await add(page, 'tt0068646', 'The Godfather', 'Crime')
    await listed(page).toBe('The Shawshank Redemption (Drama) | The Godfather (Crime)')
    await expect.poll(() => page.locator('#news').textContent()).toBe('created: tt0068646')
    await create(items.url, { id: 'tt0468569', name: 'The Dark Knight', genre: 'Action' })
    await listed(page).toBe(
      'The Shawshank Redemption (Drama) | The Godfather (Crime) | The Dark Knight (Action)',
    )
    await page.close()
  })

  it('does the same against the Worker under wrangler dev', async () => {
    const persistDir = join(dir, 'wrangler-state')
    const dev = await WranglerDev.start({
      cwd: join(root, 'items-service'),
      persistDir,
      vars: { CORS_ORIGINS: appUrl },
    })
    try {
      const page = await openApp(dev.url)
      await listed(page).toBe('')
      await add(page, 'tt0068646', 'The Godfather', 'Crime')
      await listed(page).toBe('The Godfather (Crime)')
      await create(dev.url, movie)
      await listed(page).toBe('The Godfather (Crime) | The Shawshank Redemption (Drama)')
      await page.close()
    } finally {
      await dev.stop()
    }
  })
})
