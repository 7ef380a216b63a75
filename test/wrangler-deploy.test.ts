import { execFile } from 'node:child_process'
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unstable_getDurableObjectClassNameToUseSQLiteMap, unstable_readConfig } from 'wrangler'

// `wrangler deploy --dry-run` checks the configuration and writes what it would upload, with no
// Cloudflare account and no network. It runs on a copy of wrangler.toml and the built Worker, so
// that whatever else lies in dist (a packaged node_modules) plays no part.

const mail = fileURLToPath(new URL('../mail-service/', import.meta.url))
const items = fileURLToPath(new URL('../items-service/', import.meta.url))
// A devDependency of both micros, installed at the workspace's root.
const wrangler = fileURLToPath(new URL('../node_modules/.bin/wrangler', import.meta.url))
const run = promisify(execFile)

/** `wrangler deploy --dry-run --outdir <outdir> [more]` in `dir`: what it printed, both streams. */
async function dryRun(dir: string, outdir = 'out', more: string[] = []): Promise<string> {
  const args = ['deploy', '--dry-run', '--outdir', outdir, ...more]
  const { stdout, stderr } = await run(wrangler, args, {
    cwd: dir,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_API_TOKEN: '' },
  })
  return stdout + stderr
}

/** The size of the upload wrangler printed, raw and gzipped, in KiB; logs its whole size line. */
function uploadKiBOf(output: string): { raw: number; gzip: number } {
  const line = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output)
  console.log(`wrangler dry run: ${line?.[0]}`)
  return { raw: Number(line?.[1]), gzip: Number(line?.[2]) }
}

/** The modules beside the main one, from wrangler's table: name and KiB. */
function additionalModulesOf(output: string): Map<string, number> {
  const rows = output.matchAll(/│ ([\w.-]+\.js)\s+│ esm\s+│ ([\d.]+) KiB\s+│/g)
  return new Map([...rows].map((row) => [row[1] as string, Number(row[2])]))
}

/** The files under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort()
}

// The driver's code holds this name as a string (its error's `name`): in no other module.
const driverMark = 'MongoServerSelectionError'

describe('npm run deploy -w mail-service, dry run', { timeout: 60_000 }, () => {
  let dir: string
  let output: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wrangler-dry-run-'))
    await cp(join(mail, 'wrangler.toml'), join(dir, 'wrangler.toml'))
    await cp(join(mail, 'dist/worker.js'), join(dir, 'dist/worker.js'))
    await cp(join(mail, 'dist-worker/assets'), join(dir, 'dist-worker/assets'), { recursive: true })
    output = await dryRun(dir)
  })

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('accepts the configuration and stops before uploading', () => {
    expect(output).toContain('--dry-run: exiting now.')
  })

  it('would upload worker.js alone as its script, under 400 KiB, Swagger UI not in it', async () => {
    expect(await filesUnder(join(dir, 'out'))).toEqual(['README.md', 'worker.js'])
    expect(output).not.toMatch(/Total \(\d+ modules?\)/)
    const size = uploadKiBOf(output)
    // 151 KiB with the routes on zod/mini, 578 KiB while they were @hono/zod-openapi's.
    expect(size.gzip).toBeGreaterThan(0)
    expect(size.raw).toBeLessThan(400)
    const script = await readFile(join(dir, 'out/worker.js'), 'utf8')
    expect(script).not.toContain('SwaggerUIBundle')
  })

  it('uploads the docs page and its files apart, as static assets', async () => {
    expect(output).toMatch(/Read \d+ files from the assets directory/)
    const assets = await filesUnder(join(dir, 'dist-worker/assets'))
    expect(assets).toEqual([
      '_headers',
      'docs.html',
      'docs/init.js',
      'docs/swagger-ui-bundle.js',
      'docs/swagger-ui.css',
    ])
  })
})

describe('npm run deploy -w items-service, dry run', { timeout: 60_000 }, () => {
  let dir: string
  let output: string
  /** What `npm run deploy:mongodb` would upload (`--env mongodb`), into out-mongodb/. */
  let withDriver: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wrangler-dry-run-'))
    await cp(join(items, 'wrangler.toml'), join(dir, 'wrangler.toml'))
    for (const part of ['bundle', 'bundle-mongodb', 'assets']) {
      const from = join(items, 'dist-worker', part)
      await cp(from, join(dir, 'dist-worker', part), { recursive: true })
    }
    // As `npm run deploy` runs it: `--env=` names the top level, which wrangler otherwise warns of.
    output = await dryRun(dir, 'out', ['--env='])
    withDriver = await dryRun(dir, 'out-mongodb', ['--env', 'mongodb'])
  })

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('binds the Durable Object class the Worker exports, stored in SQLite by its migration', () => {
    const config = unstable_readConfig({ config: join(items, 'wrangler.toml') })
    expect(config.durable_objects.bindings).toEqual([{ name: 'ITEMS', class_name: 'ItemsObject' }])
    // As wrangler reads the migrations: the class is created with SQLite storage.
    const sqlite = unstable_getDurableObjectClassNameToUseSQLiteMap(config.migrations)
    expect(Object.fromEntries(sqlite)).toEqual({ ItemsObject: true })
  })

  it('accepts the configuration and stops before uploading', () => {
    expect(output).toMatch(/env\.ITEMS \(ItemsObject\)\s+Durable Object/)
    // wrangler warns here of a bound class without a migration, or of any other setting it reads.
    expect(output).not.toContain('Processing wrangler.toml configuration')
    expect(output).not.toContain('WARNING')
    expect(output).toContain('--dry-run: exiting now.')
  })

  it('accepts the environment with the driver, the same Worker and object', () => {
    const config = unstable_readConfig({ config: join(items, 'wrangler.toml'), env: 'mongodb' })
    expect(config.name).toBe('items-service')
    expect(config.main).toMatch(/dist-worker\/bundle-mongodb\/entry\.js$/)
    expect(config.durable_objects.bindings).toEqual([{ name: 'ITEMS', class_name: 'ItemsObject' }])
    expect(withDriver).toMatch(/env\.ITEMS \(ItemsObject\)\s+Durable Object/)
    expect(withDriver).not.toContain('Processing wrangler.toml configuration')
    expect(withDriver).not.toContain('WARNING')
    expect(withDriver).toContain('--dry-run: exiting now.')
  })

  it('would upload entry.js with its modules but not the MongoDB driver, under 200 KiB', async () => {
    const modules = additionalModulesOf(output)
    expect(modules.size).toBeGreaterThan(0)
    expect(modules.has('mongodb.js')).toBe(false)
    expect(modules.has('mongo-item-store.js')).toBe(false)
    for (const name of await readdir(join(dir, 'out'))) {
      if (!name.endsWith('.js')) continue
      expect(await readFile(join(dir, 'out', name), 'utf8'), name).not.toContain(driverMark)
    }
    // 137 KiB (50 gzipped) with the routes on zod/mini; zod's full API alone would take it past.
    const size = uploadKiBOf(output)
    expect(size.gzip).toBeLessThan(75)
    expect(size.raw).toBeLessThan(200)
  })

  it('would upload the driver with --env mongodb, in modules of its own, under 1 MiB', () => {
    const modules = additionalModulesOf(withDriver)
    expect([...modules.keys()]).toEqual(
      expect.arrayContaining(['mongo-item-store.js', 'mongodb.js']),
    )
    const size = uploadKiBOf(withDriver)
    expect(size.gzip).toBeLessThan(3 * 1024)
    const driver = modules.get('mongodb.js') ?? Number.NaN
    console.log(`the MongoDB driver's module: ${driver} KiB`)
    expect(driver).toBeGreaterThan(500)
    // SASLprep's table as the browser build carries it (0.55 MB of base64) would take it past.
    expect(size.raw).toBeLessThan(1024)
  })

  it('keeps the driver out of every module the entry loads as it starts', async () => {
    const out = join(dir, 'out-mongodb')
    const loaded = new Set<string>()
    const visit = async (name: string) => {
      loaded.add(name)
      const code = await readFile(join(out, name), 'utf8')
      for (const [, imported] of code.matchAll(/\bfrom\s*["']\.\/([\w.-]+\.js)["']/g)) {
        if (imported && !loaded.has(imported)) await visit(imported)
      }
    }
    await visit('entry.js')
    expect(loaded).not.toContain('mongodb.js')
    expect(loaded).not.toContain('mongo-item-store.js')
    for (const name of loaded) {
      expect(await readFile(join(out, name), 'utf8'), name).not.toContain(driverMark)
    }
    expect(await readFile(join(out, 'mongodb.js'), 'utf8')).toContain(driverMark)
  })

  it('uploads the web app and the docs apart, as static assets with their headers', async () => {
    expect(output).toMatch(/Read \d+ files from the assets directory/)
    const assets = await filesUnder(join(dir, 'dist-worker/assets'))
    expect(assets).toEqual(
      expect.arrayContaining([
        '_headers',
        'assets/app.css',
        'assets/app.js',
        'assets/icon.svg',
        'docs.html',
        'docs/init.js',
        'docs/swagger-ui-bundle.js',
        'docs/swagger-ui.css',
      ]),
    )
    // Nothing there has a path of the API's: every API request reaches the Worker.
    expect(assets.filter((path) => /^(items|healthz|openapi\.json)\b/.test(path))).toEqual([])
    expect(await filesUnder(join(dir, 'out'))).not.toContain('docs.html')
  })
})
