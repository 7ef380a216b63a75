import { beforeAll, describe, expect, it } from 'vitest'
import { runBenchScript } from './support/tiny-bench.js'

// Keeps `npm run bench:workerwindows` alive: two short windows at a tiny size. The script throws
// on any answer that is not a 2xx; this checks that each Worker has its line, never a speed.
describe('bench/worker-windows.mjs', () => {
  let stdout = ''
  beforeAll(async () => {
    stdout = await runBenchScript(
      'worker-windows.mjs',
      ['--windows', '2', '--seconds', '0.3', '--n', '50'],
      [
        {
          file: 'items-service/dist-worker/bundle-mongodb/entry.js',
          npm: ['run', 'build:worker', '-w', 'items-service'],
        },
      ],
      110_000,
    )
  }, 120_000)

  it('loads the bound and items-service in turn, a paired ratio for each read', () => {
    for (const endpoint of ['GET /items/:id', 'GET /items']) {
      expect(stdout).toContain(`${endpoint}, 2 windows of 0.3 s, 50 movies:`)
      for (const name of ['bare, through an object', 'items-service, this build']) {
        const line = new RegExp(
          `^  ${name}: [\\d]+ req/s \\(median\\); over through an object [\\d.]+x \\(windows [\\d.]+x-[\\d.]+x\\)$`,
          'm',
        )
        expect(stdout).toMatch(line)
      }
    }
  })
})
