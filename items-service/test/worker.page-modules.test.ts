import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { staticImports } from './support/static-imports.js'
import { uploads } from './support/worker-under-test.js'

// The Worker answers the page at `/` itself, from a module it loads with the first request for
// it: an isolate that starts for a page view evaluates that module and what it imports. That is
// the service app's middleware and the settings (checked with zod's `zod/mini`), not the routes:
// their declarations and schemas stay in the app's module, which the Worker loads with its first
// request for anything else. Neither loads zod's full API or `@hono/zod-openapi`: the routes are
// declared with http-kit's route table over `zod/mini`, and the OpenAPI document is written by a
// module of its own, loaded by the first request for it.

const upload = dirname(uploads.default)
// zod's full API names its schemas' constructors so (`zod/mini` says `ZodMiniObject`), and
// `@hono/zod-openapi` keeps its routes' document in a property of this name.
const fullApiMarks = ['"ZodObject"', 'openAPIRegistry']
/** An operation id of the routes, which only their declarations hold. */
const routesMark = 'followItemEvents'

async function moduleNamed(prefix: string): Promise<string> {
  const names = (await readdir(upload)).filter((name) => name.startsWith(prefix))
  expect(names, prefix).toHaveLength(1)
  return names[0] ?? ''
}

async function codeOf(names: Iterable<string>): Promise<{ code: string }> {
  let code = ''
  for (const name of names) code += await readFile(join(upload, name), 'utf8')
  return { code }
}

describe("the Worker's modules", () => {
  it("hold neither zod's full API nor @hono/zod-openapi, in any module", async () => {
    const every = (await readdir(upload)).filter((name) => name.endsWith('.js'))
    const { code } = await codeOf(every)
    expect(code, 'the upload holds the routes').toContain(routesMark)
    for (const mark of fullApiMarks) expect(code, `the upload holds ${mark}`).not.toContain(mark)
  })

  it("load the routes only with the app's module, and the document's writer only when asked", async () => {
    const page = await staticImports(upload, await moduleNamed('web-page-'))
    const app = await staticImports(upload, await moduleNamed('worker-app-'))
    expect((await codeOf(app)).code).toContain(routesMark)
    expect((await codeOf(page)).code).not.toContain(routesMark)
    const writer = await moduleNamed('openapi-document-')
    expect(app.has(writer)).toBe(false)
    expect(page.has(writer)).toBe(false)
  })
})
