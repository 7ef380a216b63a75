import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach } from 'vitest'

const serviceDir = fileURLToPath(new URL('../..', import.meta.url))
const listening = /listening on http:\/\/\S+?:(\d+)/

export type Exit = { code: number | null; signal: NodeJS.Signals | null }

/** The real built entry, `node dist/server.js`, as a child process with its output collected. */
export class ServiceProcess {
  stdout = ''
  stderr = ''
  readonly exited: Promise<Exit>
  readonly #child: ChildProcess

  private constructor(env: Record<string, string>) {
    // Only the settings given: nothing from the shell that runs the tests leaks in.
    this.#child = spawn(process.execPath, ['dist/server.js'], {
      cwd: serviceDir,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.#child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      this.stdout += text
    })
    this.#child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      this.stderr += text
    })
    this.exited = new Promise((resolve) =>
      this.#child.once('exit', (code, signal) => resolve({ code, signal })),
    )
    running.add(this)
    void this.exited.then(() => running.delete(this))
  }

  /** Starts the service and resolves with it once it listens; rejects if it exits first. */
  static async start(env: Record<string, string>, timeoutMs = 15_000): Promise<RunningService> {
    const service = new ServiceProcess(env)
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const port = service.stdout.match(listening)?.[1]
      if (port) return Object.assign(service, { url: `http://127.0.0.1:${port}` })
      const exit = await Promise.race([service.exited, sleep(20)])
      if (exit) throw new Error(`service exited (${exit.code ?? exit.signal}): ${service.stderr}`)
    }
    service.kill()
    throw new Error(`service did not listen within ${timeoutMs} ms: ${service.stdout}`)
  }

  /** Runs the service until it exits on its own, e.g. because it cannot start. */
  static async run(env: Record<string, string>): Promise<ServiceProcess & { exit: Exit }> {
    const service = new ServiceProcess(env)
    return Object.assign(service, { exit: await service.exited })
  }

  get pid(): number | undefined {
    return this.#child.pid
  }

  get alive(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.alive) this.#child.kill(signal)
  }
}

export type RunningService = ServiceProcess & { url: string }

const running = new Set<ServiceProcess>()

/**
 * Kills every service still running after each test (or, with `'all'`, after the file's last
 * test, for a service shared by the file), even when the test failed.
 */
export function killServicesAfter(when: 'each' | 'all' = 'each'): void {
  const killAll = async () => {
    const services = [...running]
    for (const service of services) service.kill()
    await Promise.all(services.map((service) => service.exited))
  }
  if (when === 'each') afterEach(killAll)
  afterAll(killAll)
}

/** A fresh temporary DATA_DIR, removed after the test file. */
export async function temporaryDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'items-service-data-'))
  afterAll(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** A local port that nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export function sleep(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms))
}
