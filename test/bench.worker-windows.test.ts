import { beforeAll, describe, expect, it } from 'vitest'
import { runBenchScript } from './support/tiny-bench.js'

// Keeps `npm run bench:workerwindows` alive: two short windows at a tiny size, with the Workers
// in a workerd each and in one. The script throws on any answer that is not the expected one;
// this checks that each Worker has its line, never a speed.
describe.each([
  { mode: 'a workerd each', flags: [] },
  { mode: 'one workerd', flags: ['--one-runtime'] },
])('bench/worker-windows.mjs, $mode', ({ mode, flags }) => {
  let stdout = ''
  beforeAll(async () => {
    stdout = await runBenchScript(
      'worker-windows.mjs',
      ['--windows', '2', '--seconds', '0.3', '--creates', '50', '--n', '50', ...flags],
      [
        {
          file: 'items-service/dist-worker/bundle-mongodb/entry.js',
          npm: ['run', 'build:worker', '-w', 'items-service'],
        },
      ],
      110_000,
    )
  }, 120_000)

  it('loads the bounds and items-service in turn, paired ratios for reads and creates', () => {
    const windows = {
      'GET /items/:id': '0.3 s',
      'GET /items': '0.3 s',
      'POST /items': '50 creates',
    }
    for (const [endpoint, window] of Object.entries(windows)) {
      expect(stdout).toContain(`${endpoint}, 2 windows of ${window}, 50 movies, ${mode}:`)
      // The paired ratios of the rates, then of workerd's CPU per answer.
      const ratios = (bound: string) =>
        `over ${bound} [\\d.]+x \\(windows [\\d.]+x-[\\d.]+x; by CPU [\\d.]+x, [\\d.]+x-[\\d.]+x\\)`
      const lines = {
        'bare, through an object': ratios('through an object'),
        "bare, through an object, with the service's headers": ratios('through an object'),
        "bare, through an object, answered by Hono with the service's headers and line":
          ratios('through an object'),
        'items-service, this build': [
          ratios('through an object'),
          ratios("with the service's headers"),
          ratios('Hono with the headers and line'),
        ].join('; '),
      }
      for (const [name, rest] of Object.entries(lines)) {
        const medians = '\\d+ req/s, \\d+ µs of CPU an answer \\(medians\\)'
        expect(stdout).toMatch(new RegExp(`^  ${name}: ${medians}; ${rest}$`, 'm'))
      }
    }
  })
})
