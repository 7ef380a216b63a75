import { beforeAll, describe, expect, it } from 'vitest'
import { runBenchScript } from './support/tiny-bench.js'
import { hasValgrind } from './support/valgrind.js'

// Keeps `npm run bench:workerinstructions` alive: its quick look (the bare Worker, through an
// object and items-service; reads of one item) at a tiny size. Every Worker the full run adds is
// run by the windows bench's test too. The script throws on any read that does not answer 200
// and on a count callgrind did not write; this checks that every Worker has its row, never a
// count. Skipped without valgrind (`.ci/run` installs it).
describe.skipIf(!hasValgrind())('bench/worker-instructions.mjs --quick', () => {
  let stdout = ''
  beforeAll(async () => {
    stdout = await runBenchScript(
      'worker-instructions.mjs',
      // No warm-up: the start is the run the reads are counted against.
      ['--quick', '--reads', '20', '--warm', '0', '--n', '30'],
      [
        {
          file: 'items-service/dist-worker/bundle/entry.js',
          npm: ['run', 'build:worker', '-w', 'items-service'],
        },
      ],
      110_000,
    )
  }, 120_000)

  it('counts reads of one item and the start of the bounds and items-service', () => {
    // One item over through an object; the start over the bare Worker's.
    const cells = '[\\d,]+ k \\| [\\d.]+x \\| [\\d.]+ M \\| [\\d.]+x'
    for (const worker of [
      'bare Worker',
      'bare Worker through an object',
      'items-service, this build',
    ]) {
      expect(stdout).toMatch(new RegExp(`^\\| ${worker} \\| ${cells} \\|$`, 'm'))
    }
    expect(stdout).toMatch(
      /0\.8x of through an object's rate would be a read of one item in [\d,]+ k instructions or fewer\./,
    )
  })
})
