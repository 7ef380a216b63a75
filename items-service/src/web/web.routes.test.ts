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

  it('escape the mail-service URL in the page', async () => {
    const app = webRoutes({ assets, mailServiceUrl: '/mail"><script>alert(1)</script>' })
    const html = await (await app.request('/')).text()
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('&quot;&gt;&lt;script&gt;')
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
})
