import { beforeAll, describe, expect, it } from 'vitest'
import { runTinyBench } from './support/tiny-bench.js'

// Keeps the Workers part of `npm run bench` alive (`--workers`): one run at a tiny size, checked
// for its tables. It asserts no speed, as `bench.test.ts` does for the rest.
describe('npm run bench, the Workers runtime (--workers)', () => {
  let stdout = ''
  let written = ''
  beforeAll(async () => {
    ;({ stdout, written } = await runTinyBench(
      // A quick look's fewer starts and tries, at the smallest sizes.
      ['--workers', '--quick', '--n', '50', '--seconds', '0.3', '--rounds', '1'],
      [
        {
          file: 'items-service/dist-worker/bundle-mongodb/entry.js',
          npm: ['run', 'build:worker', '-w', 'items-service'],
        },
        { file: 'mail-service/dist/worker.js', npm: ['run', 'build', '-w', 'mail-service'] },
      ],
    ))
  }, 430_000)

  it('writes what it prints', () => {
    expect(written.trim()).toBe(stdout.trim())
  })

  /** The lines of RESULTS.md from `heading` to the next heading of its level or higher. */
  const section = (heading: string) => {
    const start = stdout.indexOf(`${heading}\n`)
    const level = heading.indexOf(' ')
    const rest = stdout.slice(start + heading.length)
    const end = rest.search(new RegExp(`\\n#{1,${level}} `))
    return start < 0 ? '' : rest.slice(0, end < 0 ? undefined : end)
  }
  const rate = '[\\d,]+'
  const ms = '[\\d,]+\\.\\d+'
  const times = `${ms} / ${ms}`
  const x = '[\\d.]+x'

  it("loads items-service's Worker beside the bare Worker and the bare Worker through an object", () => {
    const workers = section('## On the Workers runtime')
    for (const endpoint of ['GET /items', 'GET /items/:id', 'POST /items']) {
      // endpoint | n | (req/s | p50 / p99) x3 | non-2xx | errors | 4 ratios | target, against
      // through an object: one item 0.8x, the list and a create 0.9x
      const goal = endpoint === 'GET /items/:id' ? '0\\.8' : '0\\.9'
      const target = `>= ${goal}x through an object: (met|\\*\\*missed\\*\\*)`
      const row = new RegExp(
        `\\| ${endpoint} \\| 50 \\| ${rate} \\| ${times} \\| ${rate} \\| ${times} \\| ${rate} \\| ${times} \\| 0 / 0 / 0 \\| 0 / 0 / 0 \\| ${x} \\| ${x} \\| ${x} \\| ${x} \\| ${target} \\|`,
      )
      expect(workers).toMatch(row)
    }
    expect(workers).toMatch(
      /Through one object in this run: [\d,]+ reads of one item a second; [\d,]+ whole lists of 50 items a second \([\d,]+ MB\/s of answers\); [\d,]+ creations a second while the list grew from 100 to 250 items/,
    )
    // One GET /items at 50 items, and after the POSTs (50 warm-up, 150 measured) at 250.
    for (const size of ['50', '250'])
      expect(workers).toMatch(
        new RegExp(`\\| ${size} \\| ${rate} \\| ${ms} \\| ${ms} \\| ${ms} \\| ${ms} \\|`),
      )
    // What the gap is made of: the bound with the service's headers, and each round's ratio.
    for (const endpoint of ['GET /items', 'GET /items/:id', 'POST /items'])
      expect(workers).toMatch(
        new RegExp(`\\| ${endpoint} \\| ${rate} \\| ${rate} \\| ${x} \\| ${x} \\| ${x} \\|`),
      )
    const runs = section('## Every measured Worker run')
    for (const label of [
      'items-service',
      'bare, through an object',
      "bare, through an object, with the service's headers",
      'bare Worker',
    ]) {
      for (const endpoint of ['GET /items', 'GET /items/:id', 'POST /items'])
        expect(runs).toContain(`| 1 | ${endpoint} | 50 | ${label} |`)
    }
    for (const label of ['mail-service', 'bare mail Worker'])
      expect(runs).toContain(`| 1 | POST /sendmail | 0 | ${label} |`)
  })

  it('measures the first request to a new isolate and the size of the upload', () => {
    const workers = section('## On the Workers runtime')
    expect(workers).toMatch(
      /\| first request to a new isolate[^|]*50 items[^|]*\| [\d,]+ ms \| [\d,]+ ms \| [\d.]+x \(target <= 1\.5x: (met|\*\*missed\*\*)\) \|/,
    )
    expect(workers).toMatch(/\| of which, from workerd ready[^|]*\| [\d,.]+ ms \| [\d,.]+ ms \| \|/)
    expect(workers).toMatch(
      /\| before that start, Miniflare's own work[^|]*\| [\d,]+ ms \| [\d,]+ ms \| \|/,
    )
    expect(workers).toMatch(
      /\| the same start from the upload for MongoDB[^|]*\| [\d,]+ ms \| [\d,]+ ms \| [\d.]+x \|/,
    )
    for (const row of ['the modules `wrangler deploy` uploads', 'what `--env mongodb` uploads']) {
      const size = new RegExp(`\\| ${row}[^|]*\\| ([\\d.]+) MiB \\/ ([\\d.]+) MiB \\|`).exec(
        workers,
      )
      expect(Number(size?.[2]), row).toBeGreaterThan(0)
      expect(Number(size?.[2]), row).toBeLessThan(Number(size?.[1]))
    }
  })

  it("reads the object's heap, and times its start, at two sizes of its list", () => {
    const heap = section("### The object's memory as the list grows")
    const mb = '[\\d.]+ \\+ [\\d.]+ = [\\d.]+'
    for (const size of ['50', '500'])
      expect(heap).toMatch(
        new RegExp(`\\| ${size} \\| ${rate} \\| [\\d.,]+ \\| ${mb} \\| ${mb} \\|`),
      )
  })

  it("loads mail-service's Worker beside the bare mail Worker, and times its first send", () => {
    const mail = section("### mail-service's Worker")
    expect(mail).toMatch(
      new RegExp(
        `\\| POST /sendmail \\| ${rate} \\| ${times} \\| ${rate} \\| ${times} \\| 0 / 0 \\| 0 / 0 \\| ${x} \\| ${x} \\|`,
      ),
    )
    expect(mail).toMatch(
      /\| first send to a new isolate[^|]*\| [\d,]+ ms \| [\d,]+ ms \| [\d.]+x \|/,
    )
    expect(mail).toMatch(
      /\| before that start, Miniflare's own work[^|]*\| [\d,]+ ms \| [\d,]+ ms \| \|/,
    )
    expect(mail).toMatch(/\| the module wrangler uploads[^|]*\| [\d.]+ MiB \/ [\d.]+ MiB \|/)
  })

  it('times MongoDB from a Worker, with the client held by the object and with one per request', () => {
    const mongo = section('### MongoDB from a Worker')
    const figures = (label: string) => {
      const row = new RegExp(
        `\\| ${label} \\| (${ms}) \\| (${ms}) \\| (${ms}) \\| ([\\d.]+) \\|`,
      ).exec(mongo)
      expect(row, label).not.toBeNull()
      return row?.slice(1).map(Number) ?? []
    }
    const held = figures("held by the collection's object \\(items-service\\)")
    const perRequest = figures(
      'one per request \\(`bench/workers/mongo-per-request-worker\\.mjs`\\)',
    )
    // Not a speed: a client per request says hello on new connections for every request; the
    // object's client, opened by its first request, does not.
    expect(held[3]).toBeLessThan(perRequest[3] as number)
  })
})
