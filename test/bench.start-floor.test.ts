import { beforeAll, describe, expect, it } from 'vitest'
import { runBenchScript } from './support/tiny-bench.js'

// Keeps `npm run bench:startfloor` alive: one round at a tiny size. It asserts that every Worker
// started and answered and that its row is there, never a speed.
describe('bench/start-floor.mjs', () => {
  let stdout = ''
  beforeAll(async () => {
    stdout = await runBenchScript(
      'start-floor.mjs',
      ['--rounds', '1', '--n', '50'],
      [
        {
          file: 'items-service/dist-worker/bundle/entry.js',
          npm: ['run', 'build:worker', '-w', 'items-service'],
        },
      ],
      170_000,
    )
  }, 180_000)

  it('starts the bare Worker, the small Workers and items-service, and prints a row for each', () => {
    const row = (label: string, size: string) =>
      new RegExp(`^\\| ${label} \\| ${size} \\| [\\d,]+ ms \\| [\\d.]+x \\|$`, 'm')
    expect(stdout).toMatch(/^\| bare Worker \| {2}\| [\d,]+ ms \| 1\.00x \|$/m)
    for (const label of [
      'Hono, one route',
      "zod's `zod/mini`, one schema checked",
      'zod, one schema checked',
      "Hono with http-kit's `ApiApp`, one route and its schema",
      'items-service',
    ]) {
      expect(stdout).toMatch(row(label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), '[\\d,]+ KB'))
    }
  })
})
