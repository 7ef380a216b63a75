import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const packageDir = fileURLToPath(new URL('../..', import.meta.url))

/** Builds dist/ unless `npm test` (or a previous run) already has. */
export function ensureBuilt(): void {
  if (existsSync(`${packageDir}dist/server.js`) && existsSync(`${packageDir}dist/worker.js`)) return
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: packageDir, stdio: 'inherit' })
}

/** A clean environment: none of the caller's settings leak in, the test CA stays trusted. */
function baseEnv(): Record<string, string> {
  const { PATH = '', NODE_EXTRA_CA_CERTS } = process.env
  return { PATH, PORT: '0', HOST: '127.0.0.1', ...(NODE_EXTRA_CA_CERTS && { NODE_EXTRA_CA_CERTS }) }
}

export type RunningServer = {
  url: string
  child: ChildProcess
  /** Everything the process printed so far, stdout and stderr interleaved. */
  output: () => string
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>
}

/** Starts the built Node entry on a free port (PORT=0) and waits for its banner. */
export async function runServer(env: Record<string, string>): Promise<RunningServer> {
  const { child, output } = spawnEntry(env)
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 10 s:\n${output()}`)), 10_000)
    const look = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on('data', look)
    exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before listening:\n${output()}`))
    })
  })
  return { url, child, output, exited }
}

/** Runs the built Node entry expecting it to stop on its own; resolves with code and output. */
export function runToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const { child, output } = spawnEntry(env)
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output: output() })))
}

/** Spawns the built Node entry, collecting its stdout and stderr as one text. */
function spawnEntry(env: Record<string, string>) {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: packageDir,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  return { child, output: () => output }
}
