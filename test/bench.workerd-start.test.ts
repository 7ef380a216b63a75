import { beforeAll, describe, expect, it } from 'vitest'
import { runBenchScript } from './support/tiny-bench.js'

// Keeps `npm run bench:workerdstart` alive: one round at a tiny size. It asserts that every
// Worker started under workerd alone and answered as it should (the script throws otherwise),
// and that its rows are there, never a speed.
describe('bench/workerd-start.mjs', () => {
  let stdout = ''
  beforeAll(async () => {
    stdout = await runBenchScript(
      'workerd-start.mjs',
      ['--rounds', '1', '--n', '50'],
      [
        {
          file: 'items-service/dist-worker/bundle-mongodb/entry.js',
          npm: ['run', 'build:worker', '-w', 'items-service'],
        },
      ],
      110_000,
    )
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

describe('bench/workerd-start.mjs --parts', () => {
  let stdout = ''
  beforeAll(async () => {
    stdout = await runBenchScript(
      'workerd-start.mjs',
      ['--parts', '--rounds', '1', '--n', '50'],
      [
        {
          file: 'items-service/dist-worker/bundle-mongodb/entry.js',
          npm: ['run', 'build:worker', '-w', 'items-service'],
        },
      ],
      110_000,
    )
  }, 120_000)

  it("starts each step of items-service's first request, a row for each with its CPU over the one before", () => {
    const figures = '[\\d,]+ ms \\| [\\d,]+ ms'
    expect(stdout).toMatch(new RegExp(`^\\| bare Worker \\| ${figures} \\|  \\|$`, 'm'))
    expect(stdout).toMatch(
      new RegExp(
        `^\\| items-service's upload, nothing of the app loaded \\| ${figures} \\|  \\|$`,
        'm',
      ),
    )
    for (const step of [
      "\\+ the app's modules loaded",
      '\\+ the app made',
      "\\+ the collection's object woken, its store opened",
      '\\+ the first request answered: items-service',
    ]) {
      expect(stdout).toMatch(new RegExp(`^\\| ${step} \\| ${figures} \\| [+-][\\d,]+ ms \\|$`, 'm'))
    }
    expect(stdout).toContain('its storage holds 50 movies')
  })
})
