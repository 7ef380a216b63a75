import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { trackChild } from './running-children.js'

export type Exit = { code: number | null; signal: NodeJS.Signals | null }

export type BuiltEntryOptions = {
  /**
   * Settings on top of the inherited ones, with HOST=127.0.0.1 and PORT=0 unless given here;
   * a setting given as `undefined` is left out.
   */
  env?: Record<string, string | undefined>
  /** What the process inherits of `process.env`: all of it (the default) or the names given. */
  inherit?: 'all' | readonly string[]
  /** The working directory, and the base of a relative `entry`; the test's own by default. */
  cwd?: string | URL
  /** How long the process may take to listen (or, when it is expected to fail, to exit). */
  timeoutMs?: number
  /** The most files it may open (`ulimit -n`): lower than the shell's, for tests of that limit. */
  openFiles?: number
}

/** How a start that was expected to fail ended, and what the process printed. */
export type FailedStart = Exit & { stdout: string; stderr: string; output: string }

type Outcome = 'listening' | 'exited' | 'timed out'

const listeningLine = /listening on (http:\/\/(?:\[[^\]\s]+\]|[^\s:/]+):\d+)/

/**
 * A built Node entry (`node dist/server.js`) running as a child of the test process, with all
 * it prints kept for assertions. No child outlives the test process; `afterEach(killBuiltEntries)`
 * ends them sooner, even when a test fails.
 * @example
 * const service = await BuiltEntry.start('dist/server.js', { cwd, env: { DATA_DIR } })
 * await fetch(`${service.url}/items`)
 * expect(await service.stop()).toEqual({ code: 0, signal: null })
 */
export class BuiltEntry {
  /** Resolves once the process has ended and all it printed has been read. */
  readonly exited: Promise<Exit>
  readonly #child: ChildProcess
  readonly #entry: string
  #url: string | undefined
  #stdout = ''
  #stderr = ''
  #output = ''
  #onText: (() => void) | undefined

  private constructor(
    entry: string,
    { env = {}, inherit = 'all', cwd, openFiles }: BuiltEntryOptions,
  ) {
    this.#entry = entry
    // The shell lowers the limit, then becomes the process (exec): its pid is the entry's.
    const [command, args] =
      openFiles === undefined
        ? [process.execPath, [entry]]
        : ['/bin/sh', ['-c', `ulimit -n ${openFiles} && exec "$0" "$@"`, process.execPath, entry]]
    this.#child = spawn(command, args, {
      cwd,
      env: childEnv(env, inherit),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.#child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      this.#stdout += text
      this.#printed(text)
    })
    this.#child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      this.#stderr += text
      this.#printed(text)
    })
    this.exited = new Promise((resolve) => {
      this.#child.once('close', (code, signal) => resolve({ code, signal }))
      this.#child.once('error', (error) => {
        if (this.#child.pid !== undefined) return
        this.#printed(`could not spawn ${entry}: ${error.message}\n`)
        resolve({ code: null, signal: null })
      })
    })
    trackChild(this.#child, this.exited)
  }

  /**
   * Spawns `entry` with `process.execPath` and resolves once it prints
   * `listening on http://<host>:<port>`. Rejects, quoting what it printed, when it exits first
   * or does not listen within `timeoutMs` (15 s by default; then it is killed).
   */
  static async start(entry: string | URL, options: BuiltEntryOptions = {}): Promise<BuiltEntry> {
    const { timeoutMs = 15_000 } = options
    const started = new BuiltEntry(entryPath(entry, options.cwd), options)
    const outcome = await started.#outcome(timeoutMs)
    if (outcome === 'listening') return started
    if (outcome === 'timed out') {
      started.kill('SIGKILL')
      throw started.#failure(`did not listen within ${timeoutMs} ms`, await started.exited)
    }
    throw started.#failure('exited before listening', await started.exited)
  }

  /**
   * Spawns `entry` for a start that must fail, and resolves with its exit and what it printed.
   * Rejects when it listens instead, or does not exit within `timeoutMs` (15 s by default).
   */
  static async startExpectingFailure(
    entry: string | URL,
    options: BuiltEntryOptions = {},
  ): Promise<FailedStart> {
    const { timeoutMs = 15_000 } = options
    const started = new BuiltEntry(entryPath(entry, options.cwd), options)
    const outcome = await started.#outcome(timeoutMs)
    if (outcome === 'exited') {
      const { stdout, stderr, output } = started
      return { ...(await started.exited), stdout, stderr, output }
    }
    started.kill('SIGKILL')
    const what =
      outcome === 'listening'
        ? `listens on ${started.url} though its start was expected to fail`
        : `did not exit within ${timeoutMs} ms`
    throw started.#failure(what, await started.exited)
  }

  /** The address from the listening line. */
  get url(): string {
    if (this.#url === undefined) throw new Error(`${this.#entry} has not said where it listens`)
    return this.#url
  }

  get pid(): number | undefined {
    return this.#child.pid
  }

  get stdout(): string {
    return this.#stdout
  }

  get stderr(): string {
    return this.#stderr
  }

  /** Everything printed so far, stdout and stderr interleaved as they came. */
  get output(): string {
    return this.#output
  }

  get alive(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null
  }

  /** Sends `signal` to the process if it still runs; `exited` says how it ended. */
  kill(signal: NodeJS.Signals): void {
    if (this.alive) this.#child.kill(signal)
  }

  /** Sends SIGTERM and waits for the exit; SIGKILL when it takes longer than `graceMs`. */
  async stop(graceMs = 5_000): Promise<Exit> {
    this.kill('SIGTERM')
    const timer = setTimeout(() => this.kill('SIGKILL'), graceMs)
    try {
      return await this.exited
    } finally {
      clearTimeout(timer)
    }
  }

  #printed(text: string): void {
    this.#output += text
    this.#url ??= listeningLine.exec(this.#output)?.[1]
    this.#onText?.()
  }

  /** What comes first: the listening line, the end of the process, or the end of `timeoutMs`. */
  #outcome(timeoutMs: number): Promise<Outcome> {
    return new Promise((resolve) => {
      const settle = (outcome: Outcome) => {
        clearTimeout(timer)
        this.#onText = undefined
        resolve(outcome)
      }
      const timer = setTimeout(() => settle('timed out'), timeoutMs)
      this.#onText = () => {
        if (this.#url !== undefined) settle('listening')
      }
      void this.exited.then(() => settle(this.#url === undefined ? 'exited' : 'listening'))
    })
  }

  #failure(what: string, { code, signal }: Exit): Error {
    const ended = signal ? `signal ${signal}` : `code ${code}`
    const printed = this.#output.trimEnd() || '(nothing)'
    return new Error(`${this.#entry} ${what} (it ended with ${ended}); it printed:\n${printed}`)
  }
}

function entryPath(entry: string | URL, cwd: string | URL | undefined): string {
  const base = cwd instanceof URL ? fileURLToPath(cwd) : (cwd ?? process.cwd())
  const path = resolve(base, entry instanceof URL ? fileURLToPath(entry) : entry)
  if (!existsSync(path)) throw new Error(`no built entry at ${path}: run \`npm run build\` first`)
  return path
}

function childEnv(
  env: Record<string, string | undefined>,
  inherit: 'all' | readonly string[],
): Record<string, string> {
  const inherited =
    inherit === 'all'
      ? process.env
      : Object.fromEntries(inherit.map((name) => [name, process.env[name]]))
  const merged = { ...inherited, HOST: '127.0.0.1', PORT: '0', ...env }
  return Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}
