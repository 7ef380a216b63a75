import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../', import.meta.url))
const bundle = fileURLToPath(
  new URL('../items-service/dist-worker/bundle-mongodb/entry.js', import.meta.url),
)

// Keeps `npm run bench:workerdstart` alive: one round at a tiny size. It asserts that every
// Worker started under workerd alone and answered as it should (the script throws otherwise),
// and that its rows are there, never a speed.
describe('bench/workerd-start.mjs', () => {
  let stdout = ''
  beforeAll(async () => {
    if (!existsSync(bundle)) {
      await run('npm', ['run', 'build:worker', '-w', 'items-service'], { cwd: root })
    }
    ;({ stdout } = await run(
      process.execPath,
      ['bench/workerd-start.mjs', '--rounds', '1', '--n', '50'],
      { cwd: root, timeout: 110_000 },
    ))
  }, 120_000)

  it('starts the bare Workers and items-service for GET /items and GET /, a row for each', () => {
    for (const path of ['/items', '/']) {
      for (const label of ['bare Worker', 'bare Worker through an object', 'items-service']) {
        const row = new RegExp(
          `^\\| GET ${path} \\| ${label} \\| [\\d,]+ ms \\| [\\d.]+x \\| [\\d,]+ ms \\|$`,
          'm',
        )
        expect(stdout).toMatch(row)
      }
    }
    expect(stdout).toContain('items-service holds 50 movies')
  })
})
