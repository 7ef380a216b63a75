// Type-checks every workspace that has a `typecheck` script, and the tests' project (`test/`),
// as many at a time as the machine has cores: each is one `tsc`, single-threaded, and one after
// another they took most of a minute on two cores. Each one's output is printed whole when it
// ends, under its name; the exit code is 1 when any failed.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** What to run: a name, a command and its arguments. */
const checks = [
  ...workspaces
    .filter((dir) => {
      const { scripts = {} } = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'))
      return typeof scripts.typecheck === 'string'
    })
    .map((dir) => [dir, 'npm', ['run', '-s', 'typecheck', '-w', dir]]),
  ['test', process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'test']],
]

/** Runs one check; resolves to whether it passed, after printing what it wrote. */
function check([name, command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    const output = []
    child.stdout.on('data', (chunk) => output.push(chunk))
    child.stderr.on('data', (chunk) => output.push(chunk))
    // A command that cannot start ends with 'error', then 'close' with no exit code of 0.
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)))
    child.on('close', (code) => {
      const text = Buffer.concat(output).toString('utf8').trim()
      const passed = code === 0
      console.log(`${passed ? 'ok' : 'FAILED'}: typecheck ${name}${text ? `\n${text}` : ''}`)
      resolve(passed)
    })
  })
}

const queue = [...checks]
let failed = 0
const lanes = Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (!(await check(next))) failed += 1
  }
})
await Promise.all(lanes)
if (failed > 0) {
  console.error(`${failed} of ${checks.length} type checks failed`)
  process.exitCode = 1
}
