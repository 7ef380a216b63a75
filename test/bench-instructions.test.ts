import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { hasValgrind } from './support/valgrind.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../', import.meta.url))
const build = fileURLToPath(new URL('../items-service/dist/server.js', import.meta.url))

// Keeps `node bench/instructions.mjs` alive: this build against itself, a few reads of each kind.
// It asserts every figure is there and well-formed, never a count. Skipped without valgrind
// (`.ci/run` installs it).
describe.skipIf(!hasValgrind())('bench/instructions.mjs', () => {
  let stdout = ''
  beforeAll(async () => {
    if (!existsSync(build)) await run('npm', ['run', 'build', '-w', 'items-service'], { cwd: root })
    ;({ stdout } = await run(process.execPath, ['bench/instructions.mjs', build, '--reads', '40'], {
      cwd: root,
      timeout: 290_000,
    }))
  }, 300_000)

  it('counts the reads of each kind on every server', () => {
    const figure = '[\\d,]+ k'
    for (const server of [
      'bound \\(bare node:http\\)',
      'Hono app, no middleware',
      'items-service, this build',
      'items-service, other build',
    ]) {
      expect(stdout).toMatch(new RegExp(`^\\| ${server} \\| ${figure} \\| ${figure} \\|$`, 'm'))
    }
  })
})
