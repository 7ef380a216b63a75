// Runs both micros side by side on their defaults, each line prefixed with the micro's name.
// Ctrl-C (or SIGTERM) stops both gracefully; if one exits on its own, the other is stopped too.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

const micros = [
  { name: 'items', dir: 'items-service', color: 36 },
  { name: 'mail ', dir: 'mail-service', color: 35 },
]
const useColor = process.stdout.isTTY && !process.env.NO_COLOR
const label = ({ name, color }) => (useColor ? `\x1b[${color}m${name} |\x1b[0m` : `${name} |`)

let stopping = false
let exitCode = 0
const running = new Set()

for (const micro of micros) {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: new URL(`../${micro.dir}/`, import.meta.url),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream }).on('line', (line) => out.write(`${label(micro)} ${line}\n`))
  }
  child.on('exit', (code, signal) => {
    running.delete(child)
    if (!stopping) {
      process.stderr.write(`${label(micro)} exited (${signal ?? code}); stopping the other\n`)
      exitCode = code || 1
      stopAll()
    }
    if (running.size === 0) process.exit(exitCode)
  })
}

function stopAll() {
  stopping = true
  for (const child of running) child.kill('SIGTERM')
}

process.on('SIGINT', stopAll)
process.on('SIGTERM', stopAll)
