// The options of `npm run bench` (bench.mjs): sizes and times, what a quick look or a full run
// means, and where the tables are written.
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { connections } from './load.mjs'

/** The options of the command line, with their defaults for a full run or a quick look. */
export function parseOptions() {
  const { values } = parseArgs({
    options: {
      n: { type: 'string' },
      seconds: { type: 'string' },
      rounds: { type: 'string' },
      writes: { type: 'string' },
      big: { type: 'string' },
      out: { type: 'string' },
      quick: { type: 'boolean', default: false },
      workers: { type: 'boolean', default: false },
      node: { type: 'boolean', default: false },
    },
  })
  if (values.workers && values.node) throw new Error('--workers and --node exclude each other')
  const quick = values.quick
  const sizes = ['n', 'seconds', 'rounds', 'writes', 'big']
  const full = !quick && !values.node && sizes.every((name) => values[name] === undefined)
  const number = (name, fallback, min) => {
    const value = Number(values[name] ?? fallback)
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be >= ${min}`)
    return value
  }
  const n = Math.round(number('n', quick ? 50 : 1000, 1))
  const seconds = number('seconds', quick ? 1 : 5, 0.2)
  // Three writes per item, so that each write run lasts long enough to measure on a noisy machine.
  const writes = Math.round(number('writes', Math.max(3 * n, 2 * connections), connections))
  return {
    n,
    seconds,
    rounds: Math.round(number('rounds', quick ? 1 : 2, 1)),
    writes,
    warmupWrites: Math.max(connections, Math.round(writes / 5)),
    warmup: Math.min(1, seconds),
    big: Math.round(number('big', quick ? 500 : 100_000, 1)),
    // Only a full run replaces RESULTS.md; a smaller one (a quick look) writes beside the tests'.
    out:
      values.out ??
      fileURLToPath(
        new URL(
          values.workers
            ? '../test-artifacts/bench-workers.md'
            : full
              ? 'RESULTS.md'
              : '../test-artifacts/bench.md',
          import.meta.url,
        ),
      ),
    workersOnly: values.workers,
    nodeOnly: values.node,
    connections,
    coldTries: quick ? 3 : 5,
    putTries: quick ? 3 : 7,
    // The small reads beside their floors, on Node and on Workers: turns, and seconds a turn.
    smallTurns: quick ? 2 : 8,
    smallSeconds: Math.max(0.2, seconds / 2),
  }
}
