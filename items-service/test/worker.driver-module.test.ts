import { readdir, readFile, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { staticImports } from './support/static-imports.js'
import { uploads, WorkerUnderTest } from './support/worker-under-test.js'

// The MongoDB driver is a module of its own (mongodb.js), imported by the store's module only
// when CONNECTION_URL is set, and only in the upload for MongoDB (`wrangler deploy --env
// mongodb`): the runtime compiles every module of an upload at each start, so the default upload
// carries neither. And the app itself (zod, Hono, the routes, the store) is a module the object
// loads with its first request: what a start evaluates is only the Worker's hop to the object.

const withDriver = dirname(uploads.mongodb)
const lazy = ['mongo-item-store.js', 'mongodb.js']
// The driver's code holds this name as a string (its error's `name`): in no other module.
const driverMark = 'MongoServerSelectionError'

describe("the Worker's upload for MongoDB", () => {
  it('loads the driver in no module the entry loads as it starts, nor anything else of size', async () => {
    const loaded = await staticImports(withDriver, 'entry.js')
    for (const name of lazy) expect(loaded.has(name), name).toBe(false)
    let bytes = 0
    for (const name of loaded) bytes += (await stat(join(withDriver, name))).size
    // The app's modules are over 250 kB; the hop is a few kB.
    expect(bytes).toBeLessThan(8 * 1024)
    const importers: string[] = []
    for (const name of await readdir(withDriver)) {
      if (!name.endsWith('.js')) continue
      const code = await readFile(join(withDriver, name), 'utf8')
      if (code.includes('import("./mongo-item-store.js")')) importers.push(name)
    }
    expect(importers).toHaveLength(1)
    expect(loaded.has(importers[0] ?? ''), 'the module that imports the store').toBe(false)
    expect(await readFile(join(withDriver, 'mongodb.js'), 'utf8')).toContain(driverMark)
  })
})

describe("the Worker's default upload", () => {
  const workers: WorkerUnderTest[] = []
  afterAll(() => Promise.all(workers.map((worker) => worker.stop())))

  it('is the same modules but the store and the driver, and none holds the driver', async () => {
    const modules = (await readdir(dirname(uploads.default))).sort()
    expect(modules).toEqual((await readdir(withDriver)).filter((name) => !lazy.includes(name)))
    for (const name of modules) {
      const code = await readFile(join(dirname(uploads.default), name), 'utf8')
      expect(code, name).not.toContain(driverMark)
      expect(code, name).toBe(await readFile(join(withDriver, name), 'utf8'))
    }
  })

  it("serves from the object's own storage without CONNECTION_URL", async () => {
    const worker = await WorkerUnderTest.start({})
    workers.push(worker)
    const created = await worker.request('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'tt0113277', name: 'Heat', genre: 'Crime' }),
    })
    expect(created.status).toBe(201)
    await created.body?.cancel()
    const listed = await worker.request('/items')
    expect((await listed.json()) as unknown[]).toHaveLength(1)
  })

  it('refuses CONNECTION_URL as a setting it cannot honour, and says which upload can', async () => {
    const worker = await WorkerUnderTest.start({ CONNECTION_URL: 'mongodb://127.0.0.1:9/' })
    workers.push(worker)
    expect(await worker.refusesAsMisconfigured(['/items', '/items/tt0113277'])).toBe(true)
    expect(worker.stderr).toContain('items-service cannot start: invalid settings:')
    expect(worker.stderr).toContain('CONNECTION_URL: the MongoDB store could not be loaded')
    expect(worker.stderr).toContain('deploy with npm run deploy:mongodb')
    // The page needs no store: the Worker answers it still.
    expect((await worker.request('/')).status).toBe(200)
  })
})
