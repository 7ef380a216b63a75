import { afterAll, beforeAll } from 'vitest'
import { movies, TestApp } from './test-app.js'

// The app whose /openapi.json the document tests read, and that document.

export type Operation = {
  responses: Record<string, unknown>
  security?: unknown[]
  operationId?: string
  tags?: string[]
}
export type Document = {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  servers?: { url: string }[]
  tags?: { name: string }[]
}

export const apiKey = 'openapi-test-key'

const webAssets = new Map([
  [
    'app.js',
    { body: new TextEncoder().encode('export {}'), type: 'text/javascript; charset=utf-8' },
  ],
])

/**
 * For a `describe` block: an app with an API key and a web app's assets, holding two movies,
 * opened before its tests and closed after them; the document it serves; and each operation of
 * that document, named `method path`.
 */
export function useDocumentedApp() {
  let opened: { app: TestApp; document: Document } | undefined
  beforeAll(async () => {
    const app = await TestApp.open({ apiKey, webAssets })
    for (const movie of [movies.godfather, movies.darkKnight]) {
      await app.post(movie, { 'x-apikey': apiKey })
    }
    const document = (await (await app.request('/openapi.json')).json()) as Document
    opened = { app, document }
  })
  afterAll(() => opened?.app.close())

  const get = () => {
    if (!opened) throw new Error('the documented app did not open')
    return opened
  }
  const document = () => get().document
  return {
    app: () => get().app,
    document,
    documented: () =>
      Object.entries(document().paths).flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({
          name: `${method} ${path}`,
          operation,
        })),
      ),
  }
}
