import { cspDirectives } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { webRoutes } from './web.routes.js'

const assets = new Map([
  [
    'app.js',
    { body: new TextEncoder().encode('console.log(1)'), type: 'text/javascript; charset=utf-8' },
  ],
])

describe('the web app routes', () => {
  it('serve the page at / with the mail-service URL and the bundled script', async () => {
    const app = webRoutes({ assets, mailServiceUrl: 'https://mail.example/' })
    const response = await app.request('/')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await response.text()
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('<meta name="mail-service-url" content="https://mail.example/" />')
    expect(html).toContain('<script type="module" src="/assets/app.js"></script>')
  })

  it('serve the failure message in the HTML, for when the script never runs', async () => {
    const html = await (await webRoutes({ assets, mailServiceUrl: '/' }).request('/')).text()
    expect(html).toMatch(
      /<p id="app-failed"[^>]*role="alert"[^>]*>Something went wrong; reload the page\.<\/p>/,
    )
  })

  it('escape the mail-service URL in the page', async () => {
    const app = webRoutes({ assets, mailServiceUrl: '/mail"><script>alert(1)</script>' })
    const html = await (await app.request('/')).text()
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('&quot;&gt;&lt;script&gt;')
  })

  it('reference only scripts, styles and icons of their own origin, none inline', async () => {
    const html = await (
      await webRoutes({ assets, mailServiceUrl: 'https://mail.example' }).request('/')
    ).text()
    const tags = [...html.matchAll(/<(script|link|img|style|iframe|object|embed)\b[^>]*>/gi)]
    expect(tags.map((tag) => tag[1])).toEqual(['link', 'link', 'script'])
    for (const [tag] of tags) {
      const url = tag.match(/\s(?:src|href)="([^"]*)"/)?.[1]
      expect(url, tag).toMatch(/^\/(?!\/)/)
    }
    // The one script element loads a file, and nothing runs or styles from attributes.
    expect(html).toMatch(/<script type="module" src="[^"]+"><\/script>/)
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=|javascript:/i)
  })

  it('serve built assets with their media type', async () => {
    const response = await webRoutes({ assets, mailServiceUrl: '/' }).request('/assets/app.js')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await response.text()).toBe('console.log(1)')
  })

  it('answer 404 JSON for an asset that is not there', async () => {
    const response = await webRoutes({ assets, mailServiceUrl: '/' }).request('/assets/missing.js')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'no such asset' })
  })

  describe('with a sign-in (ITEMS_JWT_ISSUER and ITEMS_OIDC_CLIENT_ID)', () => {
    const signIn = {
      issuer: 'https://id.example/tenant/',
      clientId: 'movies-web',
      audience: 'https://items.example/api',
    }

    it('name the issuer, the client id and the audience in the page', async () => {
      const app = webRoutes({ assets, mailServiceUrl: '/mail', signIn })
      const html = await (await app.request('/')).text()
      expect(html).toContain('<meta name="oidc-issuer" content="https://id.example/tenant/" />')
      expect(html).toContain('<meta name="oidc-client-id" content="movies-web" />')
      expect(html).toContain('<meta name="oidc-audience" content="https://items.example/api" />')
    })

    it("let the page call the issuer's origin, and no other", async () => {
      const app = webRoutes({ assets, mailServiceUrl: 'https://mail.example', signIn })
      const policy = cspDirectives((await app.request('/')).headers.get('content-security-policy'))
      expect(policy['connect-src']).toBe("'self' https://mail.example https://id.example")
      expect(policy['form-action']).toBe("'self'")
    })

    it('name no issuer without one: the page asks for the key as before', async () => {
      const response = await webRoutes({ assets, mailServiceUrl: '/mail' }).request('/')
      expect(await response.text()).not.toContain('oidc-')
      expect(cspDirectives(response.headers.get('content-security-policy'))['connect-src']).toBe(
        "'self'",
      )
    })

    it('escape what the settings hold', async () => {
      const app = webRoutes({
        assets,
        mailServiceUrl: '/mail',
        signIn: { ...signIn, clientId: '"><script>alert(1)</script>' },
      })
      const html = await (await app.request('/')).text()
      expect(html).not.toContain('<script>alert(1)')
    })
  })
})
