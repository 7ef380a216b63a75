import { htmlHeaders } from '@movies-and-mail/http-kit/page'
import { cspDirectives } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../test/support/test-app.js'

const webAssets = new Map([
  ['app.js', { body: new TextEncoder().encode('export {}'), type: 'text/javascript' }],
])

describe('the security headers of every answer', () => {
  const app = useTestApp({ webAssets, mailServiceUrl: 'https://mail.example/v1/' })

  it('the page admits only its own scripts, styles and images, and calls only its origin and mail', async () => {
    const response = await app().request('/')
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(cspDirectives(response.headers.get('content-security-policy'))).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self' https://mail.example",
      'form-action': "'self'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    })
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
  })

  it('the docs page admits only its own scripts and styles, none inline, and calls only its origin', async () => {
    const response = await app().request('/docs')
    const page = await response.text()
    // The kit's page under the kit's policy (packages/http-kit/src/docs-ui.test.ts has the details).
    const expected = htmlHeaders()
    for (const name of ['content-security-policy', 'referrer-policy', 'x-content-type-options']) {
      expect(response.headers.get(name), name).toBe(expected[name])
    }
    expect(page).not.toMatch(/<script(?![^>]*\ssrc=)|<style|\sstyle=|\son\w+=/i)
  })

  it.each([
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['init.js', 'text/javascript; charset=utf-8'],
  ])('serves the docs page file %s as %s with nosniff', async (file, type) => {
    const response = await app().request(`/docs/${file}`)
    expect(response.headers.get('content-type')).toBe(type)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it.each<[string, () => Promise<Response>]>([
    ['GET /items', () => app().request('/items')],
    ['GET /items/<id> unknown', () => app().get('nope')],
    ['POST /items created', () => app().post(movies.shawshank)],
    ['POST /items invalid', () => app().post({ id: 'x' })],
    ['GET /healthz', () => app().request('/healthz')],
    ['GET /openapi.json', () => app().request('/openapi.json')],
    ['an unknown route', () => app().request('/nowhere')],
  ])('%s answers JSON with X-Content-Type-Options: nosniff', async (_, send) => {
    const response = await send()
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('serves the built files with nosniff, so a script is never guessed from its bytes', async () => {
    const response = await app().request('/assets/app.js')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
