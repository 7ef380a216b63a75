import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundlePath, compatibilityDate, compatibilityFlags } from './support/worker-under-test.js'

// The MongoDB driver is a module of its own (mongodb.js), imported by the store's module only
// when CONNECTION_URL is set: a Worker without it neither loads nor evaluates it. And the app
// itself (zod, Hono, the routes, the store) is a module the object loads with its first request:
// what a start evaluates is only the Worker's hop to the object.

const bundle = dirname(bundlePath)
const lazy = ['mongo-item-store.js', 'mongodb.js']

/** The modules `entry.js` imports as it loads (`import … from`), and theirs, by file name. */
async function loadedAtStart(name: string, seen = new Set<string>()): Promise<Set<string>> {
  seen.add(name)
  const code = await readFile(join(bundle, name), 'utf8')
  for (const [, imported] of code.matchAll(
    /(?:^|[;}\s])import\s*(?:[^"'()]*?from\s*)?["']\.\/([\w.-]+)["']/g,
  )) {
    if (imported && !seen.has(imported)) await loadedAtStart(imported, seen)
  }
  return seen
}

describe("the Worker's MongoDB driver", () => {
  let dir: string
  let mf: Miniflare
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'items-without-driver-'))
    const kept = (await readdir(bundle))
      .filter((name) => name.endsWith('.js') && !lazy.includes(name))
      .sort((a, b) => Number(b === 'entry.js') - Number(a === 'entry.js'))
    for (const name of kept) await cp(join(bundle, name), join(dir, name))
    mf = new Miniflare({
      // Listed, not found from a path: Miniflare would follow the import of the store's module.
      modules: await Promise.all(
        kept.map(async (name) => ({
          type: 'ESModule' as const,
          path: join(dir, name),
          contents: await readFile(join(dir, name)),
        })),
      ),
      modulesRoot: dir,
      compatibilityDate,
      compatibilityFlags,
      durableObjects: { ITEMS: { className: 'ItemsObject', useSQLite: true } },
    })
    await mf.ready
  })
  afterAll(async () => {
    await mf?.dispose()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('is in no module the entry loads as it starts, nor is anything else of size', async () => {
    const loaded = await loadedAtStart('entry.js')
    for (const name of lazy) expect(loaded.has(name), name).toBe(false)
    let bytes = 0
    for (const name of loaded) bytes += (await stat(join(bundle, name))).size
    // The app's modules are over 250 kB; the hop is a few kB.
    expect(bytes).toBeLessThan(8 * 1024)
    const importers: string[] = []
    for (const name of await readdir(bundle)) {
      if (!name.endsWith('.js')) continue
      const code = await readFile(join(bundle, name), 'utf8')
      if (code.includes('import("./mongo-item-store.js")')) importers.push(name)
    }
    expect(importers).toHaveLength(1)
    expect(loaded.has(importers[0] ?? ''), 'the module that imports the store').toBe(false)
  })

  it('is not needed by a Worker without CONNECTION_URL: it serves with the module gone', async () => {
    const created = await mf.dispatchFetch('http://items.test/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'tt0113277', name: 'Heat', genre: 'Crime' }),
    })
    expect(created.status).toBe(201)
    const listed = await mf.dispatchFetch('http://items.test/items')
    expect((await listed.json()) as unknown[]).toHaveLength(1)
  })
})
