import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../', import.meta.url))

// Keeps `npm run bench` alive: one run at a tiny size, checked for completing and for its table.
// It asserts no speed: the machine is shared, and speed is what RESULTS.md reports.
describe('npm run bench', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-test-'))
    if (!existsSync(join(root, 'items-service/dist/server.js'))) {
      await run('npm', ['run', 'build', '-w', 'items-service'], { cwd: root })
    }
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('completes at a tiny size and prints its table with every endpoint row', async () => {
    const out = join(dir, 'RESULTS.md')
    const { stdout } = await run(
      process.execPath,
      [
        'bench/bench.mjs',
        '--n',
        '50',
        '--seconds',
        '0.5',
        '--rounds',
        '1',
        '--big',
        '500',
        '--out',
        out,
      ],
      { cwd: root, maxBuffer: 16 * 1024 * 1024, timeout: 170_000 },
    )
    const written = await readFile(out, 'utf8')
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
  }, 180_000)
})
