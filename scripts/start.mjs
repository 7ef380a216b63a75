// Runs both micros side by side on their defaults, each line prefixed with the micro's name.
// ITEMS_PORT and MAIL_PORT become each micro's PORT; every other setting reaches both.
// Ctrl-C (or SIGTERM) stops both gracefully; if one exits on its own, the other is stopped too.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

const { PORT, ITEMS_PORT, MAIL_PORT, ...shared } = process.env
if (PORT?.trim()) {
  process.stderr.write(
    `PORT=${PORT} would give both micros the same port; set ITEMS_PORT and MAIL_PORT instead ` +
      `(e.g. ITEMS_PORT=4000 MAIL_PORT=4001 npm start)\n`,
  )
  process.exit(2)
}
// The page calls the mail-service where it runs, unless told otherwise.
const mailServiceUrl = MAIL_PORT?.trim() && { MAIL_SERVICE_URL: `http://localhost:${MAIL_PORT}` }

const micros = [
  {
    name: 'items',
    dir: 'items-service',
    color: 36,
    env: { ...mailServiceUrl, ...shared, ...(ITEMS_PORT && { PORT: ITEMS_PORT }) },
  },
  {
    name: 'mail ',
    dir: 'mail-service',
    color: 35,
    env: { ...shared, ...(MAIL_PORT && { PORT: MAIL_PORT }) },
  },
]
const useColor = process.stdout.isTTY && !process.env.NO_COLOR
const label = ({ name, color }) => (useColor ? `\x1b[${color}m${name} |\x1b[0m` : `${name} |`)

let stopping = false
let exitCode = 0
const running = new Set()

for (const micro of micros) {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: new URL(`../${micro.dir}/`, import.meta.url),
    env: micro.env,
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
