import { readdir, readFile, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { staticImports } from './support/static-imports.js'
import { uploads } from './support/worker-under-test.js'

// The Worker answers the page at `/` itself, from a module it loads with the first request for
// it: an isolate that starts for a page view evaluates that module and what it imports. That is
// the service app's middleware and the settings (checked with zod's `zod/mini`), not the API's
// machinery: zod's full API, `@hono/zod-openapi` and the routes' schemas stay in the app's
// module, which only the collection's object loads.

const upload = dirname(uploads.default)
// zod's full API names its schemas' constructors so (`zod/mini` says `ZodMiniObject`), and
// `@hono/zod-openapi` keeps its routes' document in a property of this name.
const fullApiMarks = ['"ZodObject"', 'openAPIRegistry']

async function moduleNamed(prefix: string): Promise<string> {
  const names = (await readdir(upload)).filter((name) => name.startsWith(prefix))
  expect(names, prefix).toHaveLength(1)
  return names[0] ?? ''
}

async function codeOf(names: Iterable<string>): Promise<{ code: string; bytes: number }> {
  let code = ''
  let bytes = 0
  for (const name of names) {
    code += await readFile(join(upload, name), 'utf8')
    bytes += (await stat(join(upload, name))).size
  }
  return { code, bytes }
}

describe("the Worker's page", () => {
  it("loads neither zod's full API nor @hono/zod-openapi, which the app's module holds", async () => {
    const page = await staticImports(upload, await moduleNamed('web-page-'))
    const app = await staticImports(upload, await moduleNamed('collection-app-'))
    const loaded = await codeOf(page)
    const appCode = (await codeOf(app)).code
    for (const mark of fullApiMarks) {
      expect(appCode, `the app's modules hold ${mark}`).toContain(mark)
      expect(loaded.code, `the page's modules hold ${mark}`).not.toContain(mark)
    }
    // What the app's module loads beyond the page's: the API's machinery, most of the upload.
    const appOnly = await codeOf([...app].filter((name) => !page.has(name)))
    expect(appOnly.bytes).toBeGreaterThan(loaded.bytes / 2)
  })
})
