import { consoleObjectsIn } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort } from './support/built-service.js'
import { nodeTarget, useRunning, workerTarget } from './support/targets.js'
import { WorkerUnderTest } from './support/worker-under-test.js'

// The Worker as deployed, its static assets in front (wrangler.toml `[assets]`), against the
// built Node entry: the same bytes, and every header Node sets to type, guard or cache a file.
const fileHeaders = [
  'content-type',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'cache-control',
]

/** The URLs a page loads (`src` and `href`), resolved against `page`, as paths with a query. */
function loadedBy(html: string, page: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="([^"]+)"/g)]
    .map((match) => match[1] ?? '')
    .filter((url) => !url.startsWith('data:'))
    .map((url) => {
      const { pathname, search } = new URL(url, `http://items.test${page}`)
      return pathname + search
    })
}

describe('the Worker with its static assets', () => {
  const node = useRunning(nodeTarget, {})
  const worker = useRunning(workerTarget, {})

  /** `path` from both: the Worker's response, after checking it against Node's. */
  async function sameAsNode(path: string): Promise<Response> {
    // Each read to its end at once: the Node entry cuts off a client that leaves its response unread.
    const expected = await node().request(path)
    const expectedBody = Buffer.from(await expected.arrayBuffer())
    const response = await worker().request(path)
    expect(response.status, path).toBe(200)
    // Compared whole, not byte by byte: Swagger UI's bundle is 1.7 MB.
    expect(expectedBody.equals(Buffer.from(await response.clone().arrayBuffer())), path).toBe(true)
    for (const name of fileHeaders) {
      const value = expected.headers.get(name)
      if (value !== null) expect(response.headers.get(name), `${path} ${name}`).toBe(value)
    }
    return response
  }

  /** Whether the Worker logged a request for `path`: whether it ran for it. */
  const logged = (path: string) =>
    consoleObjectsIn(worker().stdout).some((entry) => entry.method === 'GET' && entry.path === path)

  it('serves the page at / itself, as Node does: the page names the mail service, a setting', async () => {
    const page = await sameAsNode('/')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(page.headers.get('x-request-id')).not.toBeNull()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(logged('/')).toBe(true)
  })

  it('answers HEAD / as Node does: the headers of the page, no body', async () => {
    const expected = await node().request('/', { method: 'HEAD' })
    const response = await worker().request('/', { method: 'HEAD' })
    expect([response.status, expected.status]).toEqual([200, 200])
    expect((await response.arrayBuffer()).byteLength).toBe(0)
    for (const name of fileHeaders) {
      expect(response.headers.get(name), name).toBe(expected.headers.get(name))
    }
  })

  it("serves the page's script, styles and icon as static files, without running the Worker", async () => {
    const html = await (await worker().request('/')).text()
    const files = loadedBy(html, '/')
    expect(files).toEqual(['/assets/icon.svg', '/assets/app.css', '/assets/app.js'])
    for (const file of files) {
      const response = await sameAsNode(file)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('cache-control')).toBe('no-cache')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    for (const file of files) expect(logged(file), file).toBe(false)
  })

  it('serves /docs and the files it names as static files, with the policy Node sends', async () => {
    const docs = await sameAsNode('/docs')
    expect(docs.headers.get('content-security-policy')).toContain("default-src 'none'")
    const files = loadedBy(await docs.text(), '/docs')
    expect(files).toHaveLength(3)
    for (const file of files) {
      expect(file).toMatch(/^\/docs\/[\w.-]+\?v=[0-9a-f]{16}$/)
      const response = await sameAsNode(file)
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    for (const path of ['/docs', ...files.map((file) => file.split('?')[0] ?? '')]) {
      expect(logged(path), path).toBe(false)
    }
  })

  it('answers 304 to a file the client holds, by the tag the platform gives', async () => {
    for (const path of ['/assets/app.js', '/docs/swagger-ui-bundle.js']) {
      const etag = (await worker().request(path)).headers.get('etag')
      expect(etag, path).toMatch(/^"[0-9a-f]+"$/)
      const again = await worker().request(path, { headers: { 'if-none-match': etag ?? '' } })
      expect(again.status, path).toBe(304)
      expect(await again.text()).toBe('')
    }
  })

  it('leaves the API, the document and every other path to the app', async () => {
    expect(await (await worker().request('/items')).json()).toEqual([])
    const created = await worker().request('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'tt0113277', name: 'Heat', genre: 'Crime' }),
    })
    expect(created.status).toBe(201)
    const document = (await (await worker().request('/openapi.json')).json()) as {
      paths: Record<string, unknown>
    }
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/docs', '/assets/{file}']))
    for (const [path, error] of [
      ['/docs/missing.js', 'no such file'],
      ['/assets/missing.js', 'no such asset'],
    ] as const) {
      const response = await worker().request(path)
      expect([response.status, await response.json()], path).toEqual([404, { error }])
    }
  })
})

describe('the page on a Worker whose object cannot start', () => {
  let worker: WorkerUnderTest
  beforeAll(async () => {
    const url = `mongodb://127.0.0.1:${await closedPort()}/?serverSelectionTimeoutMS=300`
    worker = await WorkerUnderTest.start(
      { CONNECTION_URL: url, CONNECT_TIMEOUT_MS: '300' },
      undefined,
      'mongodb',
    )
  })
  afterAll(() => worker?.stop())

  it('is answered by the Worker, never by the collection object', async () => {
    expect((await worker.request('/items')).status).toBe(503)
    const page = await worker.request('/')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<script type="module" src="/assets/app.js"></script>')
    expect((await worker.request('/docs')).status).toBe(200)
  })
})

describe('the page of a service whose page signs users in', () => {
  const settings = {
    ITEMS_JWT_ISSUER: 'https://id.example/tenant/',
    ITEMS_JWT_AUDIENCE: 'https://items.example/api',
    ITEMS_OIDC_CLIENT_ID: 'movies-web',
  }
  const node = useRunning(nodeTarget, settings)
  const worker = useRunning(workerTarget, settings)

  it('names the issuer and the client, and lets the page call the issuer, on Node and the Worker', async () => {
    for (const running of [node(), worker()]) {
      const page = await running.request('/')
      const html = await page.text()
      expect(html).toContain('<meta name="oidc-issuer" content="https://id.example/tenant/" />')
      expect(html).toContain('<meta name="oidc-client-id" content="movies-web" />')
      expect(page.headers.get('content-security-policy')).toContain(
        "connect-src 'self' http://localhost:4001 https://id.example;",
      )
    }
  })
})
