import { implicitMethodProblems } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { useDocumentedApp } from '../../test/support/documented-app.js'

// What the document is: its routes and methods, names, tags, security and patterns. The
// statuses of each operation are checked against the app's answers in openapi.answers.test.ts.

/** Every `pattern` of a document. */
const patternsIn = (value: unknown): string[] =>
  typeof value !== 'object' || value === null
    ? []
    : Object.entries(value).flatMap(([key, item]) =>
        key === 'pattern' && typeof item === 'string' ? [item] : patternsIn(item),
      )

describe('GET /openapi.json', () => {
  const { app, document, documented } = useDocumentedApp()

  it('is an OpenAPI 3.1 document', () => {
    expect(document().openapi).toMatch(/^3\.1\./)
  })

  it('documents every route the app serves, and no other, with HEAD and OPTIONS', () => {
    const served = app()
      .app.routes.filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
    const implicit = [
      ...served.filter((name) => name.startsWith('get ')).map((name) => `head${name.slice(3)}`),
      ...Object.keys(document().paths).map((path) => `options ${path}`),
    ]
    expect(new Set([...served, ...implicit])).toEqual(new Set(documented().map(({ name }) => name)))
  })

  it('lists the methods of each path as OPTIONS and a 405 answer them', async () => {
    const request = (path: string, init: RequestInit) => app().app.request(path, init)
    expect(await implicitMethodProblems(document().paths, request)).toEqual([])
  })

  it('names and tags every operation, and serves them from wherever the document is', () => {
    const ids = documented().map(({ operation }) => operation.operationId)
    expect(ids).toEqual(expect.arrayContaining(['listItems', 'getItem', 'createItem']))
    expect(ids.every((id) => typeof id === 'string')).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    const tags = documented().flatMap(({ operation }) => operation.tags ?? [])
    expect(documented().every(({ operation }) => operation.tags?.length)).toBe(true)
    expect(
      document()
        .tags?.map((tag) => tag.name)
        .sort(),
    ).toEqual([...new Set(tags)].sort())
    expect(document().servers).toEqual([expect.objectContaining({ url: '.' })])
  })

  it('states the security of every operation, `[]` for the public ones', () => {
    expect(documented().filter(({ operation }) => !operation.security)).toEqual([])
  })

  it('publishes patterns that mean the same with and without the `u` flag', () => {
    const patterns = patternsIn(document())
    expect(patterns.length).toBeGreaterThan(0)
    for (const pattern of patterns) {
      // Spectral compiles patterns without `u`, ajv with it: no \p{...}, no \u{...}, no flags.
      expect(pattern).not.toMatch(/\\[pPu]\{|\/[a-z]*$/)
      expect(() => [new RegExp(pattern), new RegExp(pattern, 'u')]).not.toThrow()
    }
  })

  it('describes the API key header for the writes', () => {
    expect(document()).toMatchObject({
      components: {
        securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-apikey' } },
      },
    })
    expect(
      documented()
        // `security: []` states that an operation needs nothing.
        .filter(({ operation }) => operation.security?.length)
        .map(({ name }) => name)
        .sort(),
    ).toEqual(['delete /items/{id}', 'post /items', 'put /items/{id}'])
  })
})
