import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { freePort } from './free-port.js'
import { trackChild } from './running-children.js'

export type WranglerDevOptions = {
  /** The micro's folder: where its `wrangler.toml` and built Worker are. */
  cwd: string
  /** Where the Durable Objects keep their state (`--persist-to`): it survives a restart. */
  persistDir: string
  /** The Worker's variables (`--var NAME:value`). */
  vars?: Record<string, string>
  /** How long the start may take. */
  timeoutMs?: number
}

/**
 * `wrangler dev` of a built micro, offline, as a developer runs it: the local runtime behind
 * wrangler's own front, which Miniflare alone does not have (a request refused by a Durable
 * Object before its body was read restarts the Worker there, not under Miniflare). Each has an
 * inspector port of its own, so several run at once. What it prints is kept for assertions.
 * @example const dev = await WranglerDev.start({ cwd, persistDir }); await fetch(`${dev.url}/healthz`)
 */
export class WranglerDev {
  readonly url: string
  readonly exited: Promise<void>
  readonly #child: ChildProcess
  #output = ''

  private constructor(child: ChildProcess, url: string) {
    this.#child = child
    this.url = url
    const kill = () => {
      // The runtime is wrangler's child: the whole group goes.
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL')
    }
    this.exited = new Promise((resolve) => child.once('close', () => resolve()))
    trackChild(child, this.exited, kill)
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8').on('data', (text: string) => {
        this.#output += text
      })
    }
  }

  /** Starts it and resolves once the Worker answers `GET /healthz`; rejects with its output. */
  static async start({
    cwd,
    persistDir,
    vars = {},
    timeoutMs = 60_000,
  }: WranglerDevOptions): Promise<WranglerDev> {
    const [port, inspectorPort] = [await freePort(), await freePort()]
    const wrangler = createRequire(`${cwd}/`).resolve('wrangler/bin/wrangler.js')
    const args = [
      ...[wrangler, 'dev', '--port', String(port), '--ip', '127.0.0.1'],
      ...['--inspector-port', String(inspectorPort), '--persist-to', persistDir],
      ...['--show-interactive-dev-session=false', '--log-level', 'log'],
      ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
    ]
    const child = spawn(process.execPath, args, {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
    })
    const dev = new WranglerDev(child, `http://127.0.0.1:${port}`)
    const deadline = performance.now() + timeoutMs
    while (performance.now() < deadline && child.exitCode === null) {
      const answered = await fetch(`${dev.url}/healthz`).then(
        (response) => response.body?.cancel().then(() => true),
        () => false,
      )
      if (answered) return dev
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    await dev.stop()
    throw new Error(`wrangler dev did not start:\n${dev.output}`)
  }

  /** All it printed so far, stdout and stderr together. */
  get output(): string {
    return this.#output
  }

  async stop(): Promise<void> {
    if (this.#child.pid !== undefined && this.#child.exitCode === null) {
      process.kill(-this.#child.pid, 'SIGKILL')
    }
    await this.exited
  }
}
