import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../', import.meta.url))
const build = fileURLToPath(new URL('../items-service/dist/server.js', import.meta.url))

// Keeps `npm run bench:before-after` alive: this build against itself, at a tiny size. It
// asserts the table and its ratios are there, never a speed.
describe('bench/before-after.mjs', () => {
  let stdout = ''
  beforeAll(async () => {
    if (!existsSync(build)) await run('npm', ['run', 'build', '-w', 'items-service'], { cwd: root })
    ;({ stdout } = await run(
      process.execPath,
      ['bench/before-after.mjs', build, '--seconds', '0.2', '--rounds', '1'],
      { cwd: root, timeout: 170_000 },
    ))
  }, 180_000)

  it('loads each read on both builds and the bound, and prints a row of ratios for each', () => {
    const number = '[\\d,]+ \\([\\d,]+\\)'
    for (const read of [
      '`GET /items`',
      '`GET /items/:id`',
      '`GET /items` → 304',
      '`GET /items`, br',
      '`GET /items`, gzip',
    ]) {
      const cells = `\\| ${number} \\| ${number} \\| ${number} \\| [\\d.]+x \\| [\\d.]+x \\| [\\d.]+x \\|`
      expect(stdout).toMatch(
        new RegExp(`^\\| ${read.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${cells}$`, 'm'),
      )
    }
    expect(stdout).toMatch(
      /^cold start to the first 200 \(median of 7\): before [\d,]+ ms, after [\d,]+ ms, bound [\d,]+ ms$/m,
    )
  })
})
