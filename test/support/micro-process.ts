import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type MicroProcess = {
  url: string
  output: () => string
  stop: () => Promise<void>
}

const root = new URL('../../', import.meta.url)

/**
 * Starts a micro's built Node entry on 127.0.0.1 and a free port, with its own temporary
 * DATA_DIR, and resolves once it prints the address it listens on.
 */
export async function startMicro(
  micro: 'items-service' | 'mail-service',
  env: Record<string, string> = {},
): Promise<MicroProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), `${micro}-`))
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: new URL(`${micro}/`, root),
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const port = output.match(/listening on http:\/\/[^\s:]+:(\d+)/)?.[1]
      if (port) resolve(`http://127.0.0.1:${port}`)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`${micro} exited (${code}):\n${output}`)))
    setTimeout(() => reject(new Error(`${micro} did not start in 15 s:\n${output}`)), 15_000)
  })
  return {
    url,
    output: () => output,
    stop: async () => {
      await stopChild(child)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}
