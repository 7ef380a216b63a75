import { beforeAll, describe, expect, it } from 'vitest'
import { runTinyBench } from './support/tiny-bench.js'

// Keeps `npm run bench` alive: one run at a tiny size, checked for completing and for its tables.
// It asserts no speed: the machine is shared, and speed is what RESULTS.md reports. The Workers
// part runs apart (`bench.workers.test.ts`), beside this one.
describe('npm run bench, all but the Workers runtime (--node)', () => {
  let stdout = ''
  let written = ''
  beforeAll(async () => {
    // A quick look's fewer tries for each timed single request, at the smallest sizes.
    const sizes = ['--quick', '--n', '50', '--seconds', '0.3', '--rounds', '1', '--big', '500']
    const sync = ['--streams', '50', '--mutations', '5']
    ;({ stdout, written } = await runTinyBench(
      ['--node', ...sizes, ...sync],
      [{ file: 'items-service/dist/server.js', npm: ['run', 'build', '-w', 'items-service'] }],
    ))
  }, 430_000)

  it('completes at a tiny size and prints its table with every endpoint row', () => {
    expect(written.trim()).toBe(stdout.trim())
    for (const row of [
      '| GET /items | 50 |',
      '| GET /items | 500 |',
      '| GET /items/:id | 50 |',
      '| POST /items | 50 |',
      '| PUT /items/:id | 50 |',
      '| DELETE /items/:id | 50 |',
    ]) {
      expect(stdout).toContain(row)
    }
    expect(stdout).toMatch(/\| cold start[^|]*\| 50 \|/)
    expect(stdout).toMatch(/\| cold start[^|]*\| 500 \|/)
    expect(stdout).toMatch(/\| RSS[^|]*\| 500 \|/)
    for (const size of ['50', '500'])
      expect(stdout).toMatch(new RegExp(`\\| ${size} \\| [\\d,]+ \\|`))
    expect(stdout).toContain(`Node ${process.version}`)
  })

  it('measures the 304 polls and the compressed list on both servers, with no unexpected status', () => {
    for (const read of [
      'GET /items 304',
      'GET /items/:id 304',
      'GET /items br',
      'GET /items gzip',
    ]) {
      // read | n | ours req/s | ours p50 / p99 | bound req/s | bound p50 / p99 | body bytes |
      // unexpected | errors | ours/bound | by CPU | per pair, low-high
      const figures = '[\\d,]+ \\| [\\d.,]+ / [\\d.,]+ \\| [\\d,]+ \\| [\\d.,]+ / [\\d.,]+'
      const row = new RegExp(
        `\\| ${read} \\| 50 \\| ${figures} \\| [\\d,]+ / [\\d,]+ \\| 0 / 0 \\| 0 / 0 \\| [\\d.]+x \\| [\\d.]+x \\| [\\d.]+x-[\\d.]+x \\|`,
      )
      expect(stdout).toMatch(row)
    }
  })

  it('measures the change feed on 50 streams: memory per idle stream and delivery times', () => {
    expect(stdout).toMatch(
      /\| streams opened[^|]*\| 50 in [\d.]+ s \(50\) \| 50 in [\d.]+ s \(50\) \|/,
    )
    const kib = '-?[\\d,]+\\.\\d KiB'
    expect(stdout).toMatch(
      new RegExp(`\\| \\*\\*RSS per idle stream\\*\\* \\| ${kib} \\| ${kib} \\|`),
    )
    expect(stdout).toMatch(
      new RegExp(`\\| \\*\\*heap per idle stream\\*\\*[^|]* \\| ${kib} \\| ${kib} \\|`),
    )
    const ms = '[\\d,]+\\.\\d / [\\d,]+\\.\\d / [\\d,]+\\.\\d ms'
    expect(stdout).toMatch(new RegExp(`\\| \\*\\*delivery\\*\\*[^|]* \\| ${ms} \\| ${ms} \\|`))
    // 50 streams × 5 PUTs, each event there and the PUT's own item, no stream closed early.
    expect(stdout).toMatch(
      /\| \(stream, event\) pairs[^|]*\| 250 \/ 0 \/ 0; 0 \| 250 \/ 0 \/ 0; 0 \|/,
    )
  })
})
