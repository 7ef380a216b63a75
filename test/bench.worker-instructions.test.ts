import { beforeAll, describe, expect, it } from 'vitest'
import { runBenchScript } from './support/tiny-bench.js'
import { hasValgrind } from './support/valgrind.js'

// Keeps `npm run bench:workerinstructions` alive: a few reads of each kind at a tiny size. The
// script throws on any read that does not answer 200 and on a count callgrind did not write;
// this checks that every Worker has its row, never a count. Skipped without valgrind
// (`.ci/run` installs it).
describe.skipIf(!hasValgrind())('bench/worker-instructions.mjs', () => {
  let stdout = ''
  beforeAll(async () => {
    stdout = await runBenchScript(
      'worker-instructions.mjs',
      // No warm-up: the start is the run the reads are counted against.
      ['--reads', '20', '--warm', '0', '--n', '30'],
      [
        {
          file: 'items-service/dist-worker/bundle/entry.js',
          npm: ['run', 'build:worker', '-w', 'items-service'],
        },
      ],
      280_000,
    )
  }, 290_000)

  it('counts one-item and list reads and the start of the bounds, the floor and items-service', () => {
    // One item, the list, each over through an object; then the start over the bare Worker's.
    const cells = '[\\d,]+ k \\| [\\d.]+x \\| [\\d,]+ k \\| [\\d.]+x \\| [\\d.]+ M \\| [\\d.]+x'
    for (const worker of [
      'bare Worker',
      'bare Worker through an object',
      "the same, its object answering with the service's headers",
      "Hono with the service's headers and line, in front of that object",
      'items-service, this build',
    ]) {
      expect(stdout).toMatch(new RegExp(`^\\| ${worker} \\| ${cells} \\|$`, 'm'))
    }
    expect(stdout).toMatch(
      /0\.8x of through an object's rate would be a read of one item in [\d,]+ k/,
    )
  })
})
