import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { freePort, WranglerDev } from '@movies-and-mail/test-kit'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, launchChromium } from './support/chromium.js'
import { freshClone, NpmStart, shellEnv } from './support/fresh-clone.js'

// The tutorial followed as written, from a fresh clone: its commands run in the clone in the
// order the page gives them, its files written from the page. Only the ports differ: each server
// listens on a free one, and the page's 4000, 5173 and 8787 become those.
const root = fileURLToPath(new URL('../', import.meta.url))
const run = promisify(execFile)

/** The page's blocks of commands to type (```sh without `$ ` examples), and its files. */
async function tutorial(): Promise<{ commands: string[]; files: Map<string, string> }> {
  const markdown = await readFile(join(root, 'docs/tutorial.md'), 'utf8')
  const commands = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .map((match) => (match[1] as string).trimEnd())
    .filter((block) => !block.startsWith('$ '))
  const files = new Map<string, string>()
  for (const [, path, body] of markdown.matchAll(/^```\w+ (\S+)\n([\s\S]*?)^```$/gm)) {
    files.set(path as string, body as string)
  }
  return { commands, files }
}

const movie = { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }

describe.skipIf(!hasChromium)('the tutorial, followed as written from a fresh clone', () => {
  let dir: string
  let clone: string
  let commands: string[]
  let app: ChildProcess
  let appUrl: string
  let browser: Browser
  let started: NpmStart | undefined
  let files: Map<string, string>
  /** `npm start` as the page writes it, with the micros on free ports. */
  const npmStart = async (command: string) => {
    const ports = { ITEMS_PORT: String(await freePort()), MAIL_PORT: String(await freePort()) }
    started = await NpmStart.start(
      command.replaceAll('http://localhost:5173', appUrl),
      clone,
      ports,
    )
    return started.itemsUrl
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tutorial-'))
    clone = join(dir, 'movies-and-mail')
    const page = await tutorial()
    commands = page.commands
    expect(commands).toEqual([
      "git clone <the repository's URL> movies-and-mail\ncd movies-and-mail\nnpm install && npm start",
      'mkdir -p my-app\nnpm run build -w @movies-and-mail/items-client\ncp -r packages/items-client/dist my-app/items-client',
      'node my-app/serve.mjs',
      'CORS_ORIGINS=http://localhost:5173 npm start',
      'npm run build\ncd items-service\nnpx wrangler dev --port 8787 --ip 127.0.0.1 --var CORS_ORIGINS:http://localhost:5173',
      'npm run issuer',
      'ITEMS_JWT_ISSUER=http://127.0.0.1:4400 ITEMS_JWT_AUDIENCE=urn:items-service ITEMS_OIDC_CLIENT_ID=my-app npm start',
      'cp node_modules/oidc-client-ts/dist/browser/oidc-client-ts.min.js my-app/',
    ])
    expect([...page.files.keys()].sort()).toEqual([
      'my-app/app.js',
      'my-app/index.html',
      'my-app/serve.mjs',
      'my-app/signed-in.html',
      'my-app/signed-in.js',
    ])
    files = page.files
    // §1: `git clone` and `npm install`; `npm start` comes with the first test.
    await freshClone(root, clone)
    // §3, as written, in the clone: nothing of the client is built there before it.
    await run('sh', ['-c', commands[1] as string], { cwd: clone, env: shellEnv() })
    for (const [path, body] of page.files) {
      await mkdir(dirname(join(clone, path)), { recursive: true })
      await writeFile(join(clone, path), body)
    }
    const port = await freePort()
    // Its own process group, so that stopping it stops the shell's node too.
    app = spawn('sh', ['-c', commands[2] as string], {
      cwd: clone,
      env: shellEnv({ PORT: String(port) }),
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    })
    const printed = await new Promise<string>((resolve) =>
      app.stdout?.setEncoding('utf8').once('data', resolve),
    )
    expect(printed.trim()).toBe(`my-app on http://localhost:${port}/`)
    appUrl = `http://localhost:${port}`
    browser = await launchChromium()
  }, 180_000)
  afterEach(async () => {
    await started?.stop()
    started = undefined
  })
  afterAll(async () => {
    await browser?.close()
    if (app?.pid !== undefined && app.exitCode === null) process.kill(-app.pid, 'SIGTERM')
    await started?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  /** The app in a new page, using the service at `api`; `watch` sees the page before it loads. */
  async function openApp(api: string, watch: (page: Page) => void = () => {}): Promise<Page> {
    const page = await browser.newPage()
    watch(page)
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
  /** Signs in at the tutorial's issuer, its development login, as `name`, and comes back. */
  const signIn = async (page: Page, issuerUrl: string, name: string) => {
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${issuerUrl}/**`)
    await page.locator('input[name="login"]').fill(name)
    await page.locator('input[name="password"]').fill('any password')
    await page.getByRole('button', { name: 'Sign-in' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL(`${appUrl}/signed-in.html`)
  }
  const create = (api: string, body: object) =>
    fetch(`${api}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('§1-3: lists, and is refused a create until CORS_ORIGINS names its origin', async () => {
    const items = await npmStart('npm start')
    expect(started?.output).toMatch(/items-service: not built yet, building/)
    await create(items, movie)
    const page = await openApp(items)
    await listed(page).toBe('The Shawshank Redemption (Drama)')
    await add(page, 'tt0068646', 'The Godfather', 'Crime')
    await expect
      .poll(() => page.locator('#news').textContent())
      .toBe(`refused: a write from ${appUrl} needs that origin in CORS_ORIGINS`)
    await listed(page).toBe('The Shawshank Redemption (Drama)')
    await page.close()
  }, 180_000)

  it('§3: with CORS_ORIGINS, adds, and follows what another client creates, live', async () => {
    const items = await npmStart(commands[3] as string)
    const listReads: string[] = []
    const page = await openApp(items, (opened) =>
      opened.on('response', (response) => {
        if (response.request().method() === 'GET' && response.url() === `${items}/items`) {
          listReads.push(`${response.status()} ${response.headers().etag}`)
        }
      }),
    )
    // The same items as before the restart: they are kept in the clone's items-service/.data.
    await listed(page).toBe('The Shawshank Redemption (Drama)')
    await add(page, 'tt0068646', 'The Godfather', 'Crime')
    await listed(page).toBe('The Shawshank Redemption (Drama) | The Godfather (Crime)')
    await expect.poll(() => page.locator('#news').textContent()).toBe('created: tt0068646')
    await create(items, { id: 'tt0468569', name: 'The Dark Knight', genre: 'Action' })
    await listed(page).toBe(
      'The Shawshank Redemption (Drama) | The Godfather (Crime) | The Dark Knight (Action)',
    )
    // Every read follows a change, so each is whole: on Node, the browser's compressed form.
    await expect.poll(() => listReads.length).toBe(3)
    expect(listReads).toEqual(Array(3).fill(expect.stringMatching(/^200 "[^"]+-br"$/)))
    await page.close()
  }, 120_000)

  it('§4: does the same against the Worker under wrangler dev', async () => {
    const [build, cd, wrangler] = (commands[4] as string).split('\n')
    expect([cd, wrangler]).toEqual([
      'cd items-service',
      'npx wrangler dev --port 8787 --ip 127.0.0.1 --var CORS_ORIGINS:http://localhost:5173',
    ])
    await run('sh', ['-c', build as string], { cwd: clone, env: shellEnv() })
    // `npx wrangler dev` of the clone's items-service, on a free port: its items kept where
    // wrangler keeps them by default.
    const dev = await WranglerDev.start({
      cwd: join(clone, 'items-service'),
      persistDir: join(clone, 'items-service/.wrangler/state'),
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
  }, 180_000)

  it('§5: signs in at the issuer, and what the user adds is theirs', async () => {
    const issuerPort = await freePort()
    const issuerUrl = `http://127.0.0.1:${issuerPort}`
    // `npm run issuer` on a free port, with the app's page on its port as the redirect URI.
    const issuer = spawn('sh', ['-c', commands[5] as string], {
      cwd: clone,
      env: shellEnv({ ISSUER_PORT: String(issuerPort), REDIRECT_URIS: `${appUrl}/signed-in.html` }),
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    })
    try {
      let printed = ''
      await new Promise<void>((resolve) =>
        issuer.stdout?.setEncoding('utf8').on('data', (text: string) => {
          printed += text
          if (printed.includes('OpenID issuer on')) resolve()
        }),
      )
      expect(printed).toContain(
        `OpenID issuer on ${issuerUrl} (client my-app; any name and password sign in)`,
      )
      const command = (commands[6] as string).replaceAll('http://127.0.0.1:4400', issuerUrl)
      const items = await npmStart(command)
      await run('sh', ['-c', commands[7] as string], { cwd: clone, env: shellEnv() })
      const script = (files.get('my-app/signed-in.js') as string)
        .replaceAll('http://localhost:4000', items)
        .replaceAll('http://127.0.0.1:4400', issuerUrl)
      await writeFile(join(clone, 'my-app/signed-in.js'), script)

      const pulpFiction = { id: 'tt0110912', name: 'Pulp Fiction', genre: 'Crime' }
      const anonymous = await create(items, pulpFiction)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="items-service"')

      const page = await browser.newPage()
      await page.goto(`${appUrl}/signed-in.html`)
      await expect.poll(() => page.locator('#user').textContent()).toBe('Sign in to add movies.')
      await add(page, pulpFiction.id, pulpFiction.name, pulpFiction.genre)
      await expect
        .poll(() => page.locator('#news').textContent())
        .toBe("refused: a write needs a signed-in user's token (Authorization: Bearer) or x-apikey")
      await signIn(page, issuerUrl, 'alice')
      await expect.poll(() => page.locator('#user').textContent()).toBe('Signed in as alice')
      await add(page, pulpFiction.id, pulpFiction.name, pulpFiction.genre)
      const before =
        'The Shawshank Redemption (Drama) | The Godfather (Crime) | The Dark Knight (Action)'
      await listed(page).toBe(`${before} | Pulp Fiction (Crime), yours Delete`)
      const stored = await (await fetch(`${items}/items/${pulpFiction.id}`)).json()
      expect(stored).toMatchObject({ ...pulpFiction, _owner: 'alice' })
      // Signed out, and in again as bob: the movie is alice's, and bob is offered no Delete.
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('button', { name: 'Yes, sign me out' }).click()
      await expect.poll(() => page.locator('#user').textContent()).toBe('Sign in to add movies.')
      await signIn(page, issuerUrl, 'bob')
      await expect.poll(() => page.locator('#user').textContent()).toBe('Signed in as bob')
      await listed(page).toBe(`${before} | Pulp Fiction (Crime)`)
      await page.close()
    } finally {
      if (issuer.pid !== undefined && issuer.exitCode === null) process.kill(-issuer.pid, 'SIGTERM')
    }
  }, 180_000)
})
