import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BuiltEntry, consoleObjectsIn } from '@movies-and-mail/test-kit'
import type { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, startServer } from './support/run-server.js'
import { bindings, warmedUp, worker } from './support/worker-under-test.js'

// The Worker as deployed, its static assets in front (wrangler.toml `[assets]`), against the
// built Node entry: the docs page and its files with the same bytes, and every header Node sets
// to type, guard or cache them, served without running the Worker.
const fileHeaders = [
  'content-type',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'cache-control',
]

describe("the mail Worker's docs, as static assets", () => {
  let node: BuiltEntry
  let dataDir: string
  let mf: Miniflare
  let output = ''
  beforeAll(async () => {
    ensureBuilt()
    dataDir = await mkdtemp(join(tmpdir(), 'mail-static-assets-'))
    node = await startServer({ DATA_DIR: dataDir, API_KEYS: 'node-mail-api-key' })
    mf = await warmedUp(worker(bindings, { onOutput: (text) => (output += text) }))
  })
  afterAll(async () => {
    await mf?.dispose()
    await node?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  /** `path` from both, each read to its end at once; the Worker's answer, checked against Node's. */
  async function sameAsNode(path: string) {
    const expected = await fetch(`${node.url}${path}`)
    const expectedBody = await expected.text()
    const answer = await mf.dispatchFetch(`http://worker.test${path}`)
    const body = await answer.text()
    expect(answer.status, path).toBe(200)
    expect(body === expectedBody, path).toBe(true)
    for (const name of fileHeaders) {
      const value = expected.headers.get(name)
      if (value !== null) expect(answer.headers.get(name), `${path} ${name}`).toBe(value)
    }
    return { answer, body }
  }

  it('serves /docs and the files it names with the bytes and headers Node sends', async () => {
    const { answer, body } = await sameAsNode('/docs')
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'")
    const files = [...body.matchAll(/(?:src|href)="(docs\/[^"]+)"/g)].map((match) => match[1])
    expect(files).toHaveLength(3)
    for (const file of files) {
      const { answer: served } = await sameAsNode(`/${file}`)
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(served.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    // The Worker logs every request it runs for: it ran for none of these.
    const paths = consoleObjectsIn(output).map((entry) => String(entry.path))
    expect(paths.filter((path) => path.startsWith('/docs'))).toEqual([])
  })

  it('leaves the document, other files of /docs and the API to the Worker', async () => {
    const document = await mf.dispatchFetch('http://worker.test/openapi.json')
    expect(document.status).toBe(200)
    const missing = await mf.dispatchFetch('http://worker.test/docs/missing.js')
    expect([missing.status, await missing.json()]).toEqual([404, { error: 'no such file' }])
    const unkeyed = await mf.dispatchFetch('http://worker.test/maillog')
    expect(unkeyed.status).toBe(401)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(consoleObjectsIn(output)).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/docs/missing.js', status: 404 }),
    )
  })
})
