import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// `wrangler deploy --dry-run` checks the configuration and writes what it would upload, with no
// Cloudflare account and no network. It runs on a copy of wrangler.toml and the built worker.js,
// so that whatever else lies in dist (a packaged node_modules) plays no part.

const mail = fileURLToPath(new URL('../mail-service/', import.meta.url))
// A devDependency of mail-service, installed at the workspace's root.
const wrangler = fileURLToPath(new URL('../node_modules/.bin/wrangler', import.meta.url))
const run = promisify(execFile)

describe('npm run deploy -w mail-service, dry run', { timeout: 60_000 }, () => {
  let dir: string
  let output: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wrangler-dry-run-'))
    await cp(join(mail, 'wrangler.toml'), join(dir, 'wrangler.toml'))
    await cp(join(mail, 'dist/worker.js'), join(dir, 'dist/worker.js'))
    const { stdout, stderr } = await run(wrangler, ['deploy', '--dry-run', '--outdir', 'out'], {
      cwd: dir,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_API_TOKEN: '' },
    })
    output = stdout + stderr
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
    const gzipKiB = Number(output.match(/gzip: ([\d.]+) KiB/)?.[1])
    console.log(`wrangler dry run: ${output.match(/Total Upload: .*/)?.[0]}`)
    expect(gzipKiB).toBeGreaterThan(0)
    expect(gzipKiB).toBeLessThan(3 * 1024)
  })
})
