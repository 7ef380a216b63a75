import { clockAhead, freePort, OidcIssuer } from '@movies-and-mail/test-kit'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium } from './support/chromium.js'
import { hidden, text, useWebApp, visible } from './support/web-app.js'

// The page signs its users in at a real OpenID Provider (node-oidc-provider, in the test kit):
// authorization code with PKCE through oidc-client-ts, the provider's own login form filled in
// here, its access tokens sent with the writes and verified by the service.

const audience = 'https://items.test/api'
const clientId = 'movies-web'
// The provider's access tokens live 12 s; the service's clock runs 55 s ahead, within the 60 s
// of skew it allows. A token is taken for its first 17 s and refused as expired after, so the
// session expires while the suite runs, as it would an hour into a real one.
const tokenSeconds = 12
const aheadSeconds = 55

describe.skipIf(!hasChromium)('the web app when users sign in at an OpenID issuer', () => {
  let issuer: OidcIssuer
  const itemsEnv: Record<string, string> = {}
  beforeAll(async () => {
    const port = await freePort()
    issuer = await OidcIssuer.start({
      audience,
      webClient: { clientId, redirectUris: [`http://127.0.0.1:${port}/`] },
      accessTokenTtlSeconds: tokenSeconds,
    })
    Object.assign(itemsEnv, {
      PORT: String(port),
      ITEMS_JWT_ISSUER: issuer.url,
      ITEMS_JWT_AUDIENCE: audience,
      ITEMS_OIDC_CLIENT_ID: clientId,
      ...clockAhead(aheadSeconds * 1000),
    })
  })
  afterAll(() => issuer?.stop())

  // The writes before the sign-in, and after the session expired, are answered 401 on purpose.
  const app = useWebApp({ provoked: [401], itemsEnv, open: false })
  const signInBar = () => app.page.getByRole('region', { name: 'Sign-in' })
  const authorizations: (string | undefined)[] = []

  beforeAll(async () => {
    // No network here: what the provider's pages load from elsewhere (a web font) gets nothing.
    await app.page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) =>
      route.fulfill({ status: 204 }),
    )
    app.page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.origin === app.items.url && url.pathname.startsWith('/items')) {
        if (request.method() !== 'GET') authorizations.push(request.headers().authorization)
      }
    })
    await app.page.goto(app.items.url)
  })

  const addMovie = async (id: string, name: string) => {
    await app.addForm().getByLabel('ID').fill(id)
    await app.addForm().getByLabel('Name').fill(name)
    await app.addForm().getByLabel('Genre').fill('Drama')
    await app.addForm().getByRole('button', { name: 'Add' }).click()
  }

  it('asks a user who is not signed in to sign in, and stores nothing', async () => {
    await visible(signInBar().getByRole('button', { name: 'Sign in' }))
    await addMovie('tt0111161', 'The Shawshank Redemption')
    await text(app.addForm().getByRole('alert')).toBe(
      'Sign in to make changes: the items service takes them from signed-in users only.',
    )
    expect(await app.listedIds()).toEqual([])
    expect(authorizations).toEqual([undefined])
  })

  it("signs in at the issuer's login and comes back signed in, the tokens kept for the tab", async () => {
    await signInBar().getByRole('button', { name: 'Sign in' }).click()
    await signInAtProvider(app.page, issuer.url, 'alice')
    await app.page.waitForURL(`${app.items.url}/`)
    await text(signInBar().locator('.signed-in')).toBe(
      'Signed in as alice (alice@example.test) user alice',
    )
    // The way back's code and state are gone from the address.
    expect(new URL(app.page.url()).search).toBe('')
    const stored = await app.page.evaluate(() => Object.keys(sessionStorage))
    expect(stored).toContain(`oidc.user:${issuer.url}:${clientId}`)
    expect(await app.page.evaluate(() => Object.keys(localStorage))).toEqual([])
  })

  it('creates an item with the access token: its owner is the signed-in user', async () => {
    authorizations.length = 0
    await addMovie('tt0111161', 'The Shawshank Redemption')
    await text(app.status()).toBe('Added The Shawshank Redemption')
    const item = await (await fetch(`${app.items.url}/items/tt0111161`)).json()
    expect(item).toMatchObject({ id: 'tt0111161', _owner: 'alice' })
    expect(authorizations).toHaveLength(1)
    const token = authorizations[0]?.replace(/^Bearer /, '') ?? ''
    // The provider's own access token, for this API.
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())
    expect(claims).toMatchObject({ iss: issuer.url, aud: audience, sub: 'alice' })
    const row = app.movies().getByRole('listitem').filter({ hasText: 'Shawshank' })
    await visible(row.getByRole('button', { name: 'Edit The Shawshank Redemption' }))
    await visible(row.getByRole('button', { name: 'Delete The Shawshank Redemption' }))
  })

  it("offers no edit or delete on another user's item", async () => {
    const bobs = await fetch(`${app.items.url}/items`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${await issuer.sign('bob')}`,
      },
      body: JSON.stringify({ id: 'tt0068646', name: 'The Godfather', genre: 'Crime' }),
    })
    expect(bobs.status).toBe(201)
    const row = app.movies().getByRole('listitem').filter({ hasText: 'The Godfather' })
    await visible(row)
    expect(await row.getByRole('button').count()).toBe(0)
    const own = app.movies().getByRole('listitem').filter({ hasText: 'Shawshank' })
    expect(await own.getByRole('button').count()).toBe(2)
  })

  it('says the session expired when the service refuses the token, and offers to sign in again', async () => {
    const expiresAt = await app.page.evaluate(
      (key) => JSON.parse(sessionStorage.getItem(key) ?? '{}').expires_at as number,
      `oidc.user:${issuer.url}:${clientId}`,
    )
    // Past the token's expiry as the service's clock and skew see it.
    const refusedFrom = (expiresAt + 60 - aheadSeconds + 1) * 1000
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, refusedFrom - Date.now())))
    const row = app.movies().getByRole('listitem').filter({ hasText: 'Shawshank' })
    await row.getByRole('button', { name: 'Delete The Shawshank Redemption' }).click()
    await app.page.getByRole('button', { name: 'Yes' }).click()
    const expired =
      'Your sign-in is no longer accepted (the token has expired (exp)): sign in again.'
    await text(signInBar().getByRole('alert')).toBe(expired)
    await visible(signInBar().getByRole('button', { name: 'Sign in again' }))
    expect(await app.listedIds()).toEqual(['tt0111161', 'tt0068646'])
  })

  it('signs out at the issuer too, and offers no edit or delete once signed out', async () => {
    await signInBar().getByRole('button', { name: 'Sign out' }).click()
    await app.page.getByRole('button', { name: 'Yes, sign me out' }).click()
    await app.page.waitForURL(`${app.items.url}/`)
    await visible(signInBar().getByRole('button', { name: 'Sign in' }))
    await hidden(signInBar().locator('.signed-in'))
    await visible(app.movies().getByRole('listitem').filter({ hasText: 'Shawshank' }))
    expect(await app.movies().getByRole('button').count()).toBe(0)
    expect(await app.page.evaluate(() => Object.keys(sessionStorage))).not.toContain(
      `oidc.user:${issuer.url}:${clientId}`,
    )
  })

  it('wrote no script error to the console', () => {
    expect(app.problems).toEqual([])
  })
})

/** Fills node-oidc-provider's development login as `name`, and consents. */
async function signInAtProvider(page: Page, issuerUrl: string, name: string) {
  await page.waitForURL(`${issuerUrl}/**`)
  await page.locator('input[name="login"]').fill(name)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
}
