import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestApp, testApp } from '../../test/support/test-app.js'

type Operation = { description?: string; responses: Record<string, { description?: string }> }
type Document = { paths: Record<string, Record<string, Operation>> }

let t: TestApp
let document: Document
beforeAll(async () => {
  t = await testApp()
  document = (await (await t.app.request('/openapi.json')).json()) as Document
})
afterAll(() => t.cleanup())

const operation = (path: string, method: string) => document.paths[path]?.[method]

describe('GET /openapi.json on whose records a key reads', () => {
  it.each(['/maillog', '/outbox'])(
    'says that %s lists the key its own records, an admin key every one',
    (path) => {
      const { description = '', responses } = operation(path, 'get') ?? { responses: {} }
      expect(description).toContain('Each key lists only')
      expect(description).toContain('a key of `ADMIN_API_KEYS` lists every one')
      expect(description).toContain('only an admin key sees those')
      expect(responses['200']?.description).toContain('of this key (every key, for an admin key)')
    },
  )

  it('says that a send is filed under its key', () => {
    expect(operation('/sendmail', 'post')?.description).toContain('filed under the API key')
  })
})

describe('GET /openapi.json on the recipient limit', () => {
  it('says that a 429 counts an inbox, not a spelling', () => {
    const tooMany = operation('/sendmail', 'post')?.responses['429']?.description ?? ''
    expect(tooMany).toContain('the address in lower case, without the `+tag` of its local part')
    expect(tooMany).toContain('its domain in its IDNA ASCII form')
    expect(tooMany).toContain('dots are kept')
  })
})
