import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../', import.meta.url))
const bundle = fileURLToPath(
  new URL('../items-service/dist-worker/bundle/entry.js', import.meta.url),
)

// Keeps `npm run bench:startfloor` alive: one round at a tiny size. It asserts that every Worker
// started and answered and that its row is there, never a speed.
describe('bench/start-floor.mjs', () => {
  let stdout = ''
  beforeAll(async () => {
    if (!existsSync(bundle)) {
      await run('npm', ['run', 'build:worker', '-w', 'items-service'], { cwd: root })
    }
    ;({ stdout } = await run(
      process.execPath,
      ['bench/start-floor.mjs', '--rounds', '1', '--n', '50'],
      { cwd: root, timeout: 170_000 },
    ))
  }, 180_000)

  it('starts the bare Worker, the small Workers and items-service, and prints a row for each', () => {
    const row = (label: string, size: string) =>
      new RegExp(`^\\| ${label} \\| ${size} \\| [\\d,]+ ms \\| [\\d.]+x \\|$`, 'm')
    expect(stdout).toMatch(/^\| bare Worker \| {2}\| [\d,]+ ms \| 1\.00x \|$/m)
    for (const label of [
      'Hono, one route',
      "zod's `zod/mini`, one schema checked",
      'zod, one schema checked',
      'Hono with `@hono/zod-openapi`, one route and its schema',
      'items-service',
    ]) {
      expect(stdout).toMatch(row(label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), '[\\d,]+ KB'))
    }
  })
})
