import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { cspDirectives } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { addDocsRoutes } from './docs-routes.js'
import { docsUi } from './docs-ui.js'
import { createServiceApp } from './service-app.js'

const app = createServiceApp({ log: () => {}, corsOrigins: ['*'], apiKeys: [] })
addDocsRoutes(app, { title: 'shop', version: '1.0.0', description: 'Things.' })
const get = (path: string, headers: Record<string, string> = {}) =>
  Promise.resolve(app.request(path, { headers }))

const swaggerUiDist = (file: string) =>
  readFile(createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`), 'utf8')

/** The URLs the page loads its files from, as written in it. */
async function loadedUrls(): Promise<string[]> {
  const page = await (await get('/docs')).text()
  return [...page.matchAll(/<(?:script|link rel="stylesheet")[^>]* (?:src|href)="([^"]*)"/g)].map(
    (match) => match[1] ?? '',
  )
}

describe('GET /docs', () => {
  it('is a page under a strict policy: its own files only, and calls to its own origin', async () => {
    const response = await get('/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(cspDirectives(response.headers.get('content-security-policy'))).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'form-action': "'self'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    })
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('has no inline script, style or handler: every script is a file of its own', async () => {
    const page = await (await get('/docs')).text()
    expect(page).not.toMatch(/<style|\sstyle=|\son\w+=/i)
    const scripts = page.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []
    expect(scripts).toHaveLength(2)
    for (const script of scripts) expect(script).toMatch(/^<script src="[^"]+" defer><\/script>$/)
  })

  it("loads Swagger UI's stylesheet and bundle and the init script, by relative, versioned URLs", async () => {
    expect(await loadedUrls()).toEqual([
      expect.stringMatching(/^docs\/swagger-ui\.css\?v=[0-9a-f]{16}$/),
      expect.stringMatching(/^docs\/swagger-ui-bundle\.js\?v=[0-9a-f]{16}$/),
      expect.stringMatching(/^docs\/init\.js\?v=[0-9a-f]{16}$/),
    ])
  })

  it.each(['https://host.example/docs', 'https://host.example/mail/docs'])(
    'at %s, names files the service serves once a prefix is taken off',
    async (pageUrl) => {
      const prefix = new URL(pageUrl).pathname.replace(/\/docs$/, '')
      for (const url of await loadedUrls()) {
        const { pathname, search } = new URL(url, pageUrl)
        expect(pathname.startsWith(`${prefix}/docs/`)).toBe(true)
        expect((await get(pathname.slice(prefix.length) + search)).status).toBe(200)
      }
    },
  )

  it('escapes the title', async () => {
    const hostile = createServiceApp({ log: () => {}, corsOrigins: ['*'], apiKeys: [] })
    addDocsRoutes(hostile, { title: '<script>x</script>', version: '1', description: '' })
    const page = await (await hostile.request('/docs')).text()
    expect(page).toContain('<title>&lt;script&gt;x&lt;/script&gt; API</title>')
  })
})

describe('GET /docs/{file}', () => {
  it.each([
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ])('answers %s of swagger-ui-dist as it is installed, as %s', async (file, type) => {
    const response = await get(`/docs/${file}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(type)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await response.text()).toBe(await swaggerUiDist(file))
  })

  it('answers the init script, which renders the relative openapi.json', async () => {
    const response = await get('/docs/init.js')
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const script = await response.text()
    expect(script).toContain("new URL('openapi.json', pageFolder)")
    expect(script).toContain("new URL('.', document.baseURI)")
  })

  it('lets the URL the page names be cached for a year, and every other be checked again', async () => {
    for (const url of await loadedUrls()) {
      const named = await get(`/${url}`)
      expect(named.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(named.headers.get('etag')).toBe(`"${url.split('?v=')[1]}"`)
      const unversioned = await get(`/${url.split('?')[0]}`)
      expect(unversioned.headers.get('cache-control')).toBe('no-cache')
      expect(unversioned.headers.get('etag')).toBe(named.headers.get('etag'))
    }
  })

  it('answers 304 without a body to a request that holds the current version', async () => {
    const etag = (await get('/docs/swagger-ui-bundle.js')).headers.get('etag') ?? ''
    const again = await get('/docs/swagger-ui-bundle.js', { 'if-none-match': `W/"x", ${etag}` })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const stale = await get('/docs/swagger-ui-bundle.js', { 'if-none-match': '"0123"' })
    expect(stale.status).toBe(200)
  })

  it('answers 404 for any other file', async () => {
    for (const path of ['/docs/index.html', '/docs/swagger-ui.js', '/docs/..%2Fopenapi.json']) {
      const response = await get(path)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: 'no such file' })
    }
  })

  it('reads the files again on the next request when reading them failed', async () => {
    let reads = 0
    const ui = docsUi('x', async () => {
      reads += 1
      if (reads === 1) throw new Error('not there yet')
      return { css: 'p{}', bundle: '', init: '' }
    })
    await expect(ui.file('swagger-ui.css', {})).rejects.toThrow('not there yet')
    const file = await ui.file('swagger-ui.css', {})
    expect([file?.status, new TextDecoder().decode(file?.body ?? undefined)]).toEqual([200, 'p{}'])
    expect(reads).toBe(2)
  })
})
