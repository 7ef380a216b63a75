import { beforeAll, describe, expect, it } from 'vitest'
import { runTinyBench } from './support/tiny-bench.js'

// Keeps `npm run bench` working: one run of all of it at a tiny size (a quick look: 0.2 s per
// endpoint, 50 movies), checked for completing and for every row of its tables. It asserts no
// speed: the machine is shared, and speed is what the bench reports.
describe('npm run bench, at a tiny size', () => {
  let stdout = ''
  let written = ''
  beforeAll(async () => {
    const sizes = ['--quick', '--n', '50', '--seconds', '0.2', '--rounds', '1', '--big', '500']
    ;({ stdout, written } = await runTinyBench(sizes, [
      { file: 'items-service/dist/server.js', npm: ['run', 'build', '-w', 'items-service'] },
      {
        file: 'items-service/dist-worker/bundle-mongodb/entry.js',
        npm: ['run', 'build:worker', '-w', 'items-service'],
      },
    ]))
  }, 430_000)

  /** The lines of the output from `heading` to the next heading of its level or higher. */
  const section = (heading: string) => {
    const start = stdout.indexOf(`${heading}\n`)
    const level = heading.indexOf(' ')
    const rest = stdout.slice(start + heading.length)
    const end = rest.search(new RegExp(`\\n#{1,${level}} `))
    return start < 0 ? '' : rest.slice(0, end < 0 ? undefined : end)
  }
  const rate = '[\\d,]+'
  const ms = '[\\d,]+\\.\\d+'
  const x = '[\\d.]+x'

  it('writes what it prints, on this Node', () => {
    expect(written.trim()).toBe(stdout.trim())
    expect(stdout).toContain(`Node ${process.version}`)
  })

  it('loads every endpoint on items-service, the bound and json-server, with no unexpected status', () => {
    for (const [endpoint, n] of [
      ['GET /items', '50'],
      ['GET /items', '500'],
      ['GET /items/:id', '50'],
      ['POST /items', '50'],
      ['PUT /items/:id', '50'],
      ['DELETE /items/:id', '50'],
    ]) {
      expect(stdout).toContain(`| ${endpoint} | ${n} |`)
    }
    expect(stdout).toMatch(/\| cold start[^|]*\| 50 \|/)
    expect(stdout).toMatch(/\| cold start[^|]*\| 500 \|/)
    expect(stdout).toMatch(/\| RSS[^|]*\| 500 \|/)
    for (const size of ['50', '500'])
      expect(stdout).toMatch(new RegExp(`\\| ${size} \\| ${rate} \\|`))
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
        `\\| ${read} \\| 50 \\| ${figures} \\| [\\d,]+ / [\\d,]+ \\| 0 / 0 \\| 0 / 0 \\| ${x} \\| ${x} \\| ${x}-${x} \\|`,
      )
      expect(stdout).toMatch(row)
    }
  })

  it("loads the small reads on the bound, the bound with the promises, Hono's floor and items-service", () => {
    const small = section('## The small reads beside their floors')
    for (const read of ['GET /items/:id', 'GET /items/:id 304', 'GET /items 304', 'GET /items']) {
      // read | 4 x req/s (µs) | promises/bound | floor/bound | ours (low-high) | by CPU | unexpected
      const row = new RegExp(
        `\\| ${read} \\|( [\\d,]+ \\([\\d,]+\\) \\|){4} ${x} \\| ${x} \\| ${x} \\(${x}-${x}\\) \\| ${x} \\| 0 / 0 / 0 / 0 \\|`,
      )
      expect(small).toMatch(row)
    }
  })

  it("loads items-service's Worker beside the bare Worker and the bare Worker through an object", () => {
    const workers = section('## On the Workers runtime')
    const times = `${ms} / ${ms}`
    for (const endpoint of ['GET /items', 'GET /items/:id', 'POST /items']) {
      // endpoint | n | (req/s | p50 / p99) x3 | non-2xx | errors | 4 ratios | target
      const goal = endpoint === 'GET /items/:id' ? '0\\.7' : '0\\.9'
      const target = `>= ${goal}x through an object: (met|\\*\\*missed\\*\\*)`
      const row = new RegExp(
        `\\| ${endpoint} \\| 50 \\| ${rate} \\| ${times} \\| ${rate} \\| ${times} \\| ${rate} \\| ${times} \\| 0 / 0 / 0 \\| 0 / 0 / 0 \\| ${x} \\| ${x} \\| ${x} \\| ${x} \\| ${target} \\|`,
      )
      expect(workers).toMatch(row)
    }
    // One GET /items at 50 items, and after the POSTs (50 warm-up, 150 measured) at 250.
    for (const size of ['50', '250'])
      expect(workers).toMatch(
        new RegExp(`\\| ${size} \\| ${rate} \\| ${ms} \\| ${ms} \\| ${ms} \\| ${ms} \\|`),
      )
    const runs = section('## Every measured Worker run')
    for (const label of ['items-service', 'bare, through an object', 'bare Worker'])
      for (const endpoint of ['GET /items', 'GET /items/:id', 'POST /items'])
        expect(runs).toContain(`| 1 | ${endpoint} | 50 | ${label} |`)
  })

  it("loads one item on items-service's Worker beside the bound and the promised pipeline's floor, in turns", () => {
    const small = section('### One item beside its floor')
    // Worker | req/s | workerd µs per answer | over the bound (low-high) | by CPU | unexpected | target
    const share = `${x} \\(${x}-${x}\\)`
    expect(small).toMatch(
      new RegExp(
        `\\| through an object \\| ${rate} \\| ${rate} \\| 1\\.00x \\| 1\\.00x \\| 0 \\|  \\|`,
      ),
    )
    expect(small).toMatch(
      new RegExp(
        `\\| through an object, with the promises \\| ${rate} \\| ${rate} \\| ${share} \\| ${x} \\| 0 \\|  \\|`,
      ),
    )
    expect(small).toMatch(
      new RegExp(
        `\\| items-service \\| ${rate} \\| ${rate} \\| ${share} \\| ${x} \\| 0 \\| >= 0\\.7x: (met|\\*\\*missed\\*\\*) \\|`,
      ),
    )
    expect(small).toMatch(new RegExp(`items-service over the floor, per turn: ${share}\\.`))
  })

  it('times the first request to a new isolate and measures the upload', () => {
    const workers = section('## On the Workers runtime')
    expect(workers).toMatch(
      /\| first request to a new isolate[^|]*50 items[^|]*\| [\d,]+ ms \| [\d,]+ ms \| [\d.]+x \(target <= 1\.5x: (met|\*\*missed\*\*)\) \|/,
    )
    expect(workers).toMatch(/\| of which, from workerd ready[^|]*\| [\d,.]+ ms \| [\d,.]+ ms \| \|/)
    for (const row of ['the modules `wrangler deploy` uploads', 'what `--env mongodb` uploads']) {
      const size = new RegExp(`\\| ${row}[^|]*\\| ([\\d.]+) MiB \\/ ([\\d.]+) MiB \\|`).exec(
        workers,
      )
      expect(Number(size?.[2]), row).toBeGreaterThan(0)
      expect(Number(size?.[2]), row).toBeLessThan(Number(size?.[1]))
    }
  })
})
