import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises'
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
const modules = fileURLToPath(new URL('../node_modules', import.meta.url))
// A devDependency of both micros, installed at the workspace's root.
const wrangler = fileURLToPath(new URL('../node_modules/.bin/wrangler', import.meta.url))
const run = promisify(execFile)

/** `wrangler deploy --dry-run --outdir out` in `dir`: what it printed, both streams. */
async function dryRun(dir: string): Promise<string> {
  const { stdout, stderr } = await run(wrangler, ['deploy', '--dry-run', '--outdir', 'out'], {
    cwd: dir,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_API_TOKEN: '' },
  })
  return stdout + stderr
}

/** The gzipped size of the upload wrangler printed, in KiB; logs its whole size line. */
function gzipKiBOf(output: string): number {
  console.log(`wrangler dry run: ${output.match(/Total Upload: .*/)?.[0]}`)
  return Number(output.match(/gzip: ([\d.]+) KiB/)?.[1])
}

describe('npm run deploy -w mail-service, dry run', { timeout: 60_000 }, () => {
  let dir: string
  let output: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wrangler-dry-run-'))
    await cp(join(mail, 'wrangler.toml'), join(dir, 'wrangler.toml'))
    await cp(join(mail, 'dist/worker.js'), join(dir, 'dist/worker.js'))
    output = await dryRun(dir)
  })

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('accepts the configuration and stops before uploading', () => {
    expect(output).toContain('--dry-run: exiting now.')
  })

  it('would upload worker.js alone, within the 3 MiB compressed limit of a free account', () => {
    expect(existsSync(join(dir, 'out/worker.js'))).toBe(true)
    expect(output).not.toMatch(/Total \(\d+ modules?\)/)
    const gzipKiB = gzipKiBOf(output)
    expect(gzipKiB).toBeGreaterThan(0)
    expect(gzipKiB).toBeLessThan(3 * 1024)
  })
})

describe('npm run deploy -w items-service, dry run', { timeout: 60_000 }, () => {
  let dir: string
  let output: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wrangler-dry-run-'))
    await cp(join(items, 'wrangler.toml'), join(dir, 'wrangler.toml'))
    await cp(join(items, 'dist-worker/entry.js'), join(dir, 'dist-worker/entry.js'))
    // wrangler bundles the service's code with the MongoDB driver, as `npm run deploy` does.
    await symlink(modules, join(dir, 'node_modules'), 'dir')
    output = await dryRun(dir)
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
    expect(output).toContain('--dry-run: exiting now.')
  })

  it('would upload entry.js alone, within the 3 MiB compressed limit of a free account', () => {
    expect(existsSync(join(dir, 'out/entry.js'))).toBe(true)
    expect(output).not.toMatch(/Total \(\d+ modules?\)/)
    const gzipKiB = gzipKiBOf(output)
    expect(gzipKiB).toBeGreaterThan(0)
    expect(gzipKiB).toBeLessThan(3 * 1024)
  })
})
