import { describe, expect, it } from 'vitest'
import { TestApp } from '../../test/support/test-app.js'

describe('GET /docs', () => {
  it('is Swagger UI for the relative openapi.json, with every file from this service', async () => {
    const app = await TestApp.open()
    try {
      const response = await app.request('/docs')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      const html = await response.text()
      const loaded = [...html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="([^"]*)"/g)]
        .map((match) => match[1] ?? '')
        .filter((url) => !url.startsWith('data:'))
      // Relative, so that they name this service's files behind a path prefix too.
      expect(loaded.map((url) => url.split('?')[0])).toEqual([
        'docs/swagger-ui.css',
        'docs/swagger-ui-bundle.js',
        'docs/init.js',
      ])
      for (const url of loaded) expect((await app.request(`/${url}`)).status).toBe(200)
      const init = await (await app.request('/docs/init.js')).text()
      expect(init).toContain("new URL('openapi.json', pageFolder)")
    } finally {
      await app.close()
    }
  })
})
