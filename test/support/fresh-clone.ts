import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The environment of a reader's shell: this one without what npm and vitest set for the run. */
export const shellEnv = (env: Record<string, string> = {}): Record<string, string> => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && !/^(npm_|VITEST|NODE_ENV$|NODE_OPTIONS$)/i.test(entry[0]),
    ),
  ),
  ...env,
})

/**
 * What `git clone` and `npm install` leave in `dir`, made from the repository at `root`: its
 * files as git sees them (committed or not, nothing ignored: no `dist`, no `.data`), and a
 * `node_modules` of hard links to the root's, which `npm install` made from the same
 * package-lock.json. Its workspace links are relative, so they name the clone's own packages;
 * the caches tools write into are left out, so that nothing the clone runs writes into the
 * root's files.
 */
export async function freshClone(root: string, dir: string): Promise<void> {
  const files = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((path) => path && existsSync(join(root, path)))
  for (const path of files) await cp(join(root, path), join(dir, path), { verbatimSymlinks: true })
  // Hard links where the two are on one file system; a copy where they are not.
  await run('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')]).catch(() =>
    run('cp', ['-a', join(root, 'node_modules'), join(dir, 'node_modules')]),
  )
  for (const cache of ['.cache', '.vite', '.vitest']) {
    await rm(join(dir, 'node_modules', cache), { recursive: true, force: true })
  }
}

/** `npm start` in a clone, as a reader runs it in a terminal, until it is stopped (Ctrl-C). */
export class NpmStart {
  readonly itemsUrl: string
  readonly #child: ChildProcess
  readonly #exited: Promise<void>
  #output = ''

  private constructor(child: ChildProcess, itemsUrl: string, exited: Promise<void>) {
    this.#child = child
    this.itemsUrl = itemsUrl
    this.#exited = exited
  }

  /**
   * Runs `command` (`npm start`, with settings before it as a shell takes them) in `cwd` and
   * resolves once both micros say where they listen.
   */
  static async start(
    command: string,
    cwd: string,
    env: Record<string, string>,
    timeoutMs = 120_000,
  ): Promise<NpmStart> {
    // Its own process group, as a terminal's foreground job: Ctrl-C reaches npm and the micros.
    const child = spawn('sh', ['-c', command], {
      cwd,
      env: shellEnv(env),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
    let output = ''
    const listening = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start did not start:\n${output}`)),
        timeoutMs,
      )
      void exited.then(() => reject(new Error(`npm start exited:\n${output}`)))
      for (const stream of [child.stdout, child.stderr]) {
        stream?.setEncoding('utf8').on('data', (text: string) => {
          output += text
          const items = /items-service listening on (http:\/\/\S+)/.exec(output)
          if (items && /mail-service listening on/.test(output)) {
            clearTimeout(timer)
            resolve(items[1] as string)
          }
        })
      }
    })
    const npmStart = (url: string) => {
      const started = new NpmStart(child, url, exited)
      started.#output = output
      return started
    }
    return await listening.then(npmStart, async (error: unknown) => {
      await npmStart('').stop()
      throw error
    })
  }

  /** What it printed until it said where the micros listen. */
  get output(): string {
    return this.#output
  }

  /** Ctrl-C: SIGINT to its group, then SIGKILL to what is left of it after 10 s. */
  async stop(): Promise<void> {
    const pid = this.#child.pid
    if (pid === undefined) return
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-pid, name)
      } catch {
        // The group has ended already.
      }
    }
    signal('SIGINT')
    const timer = setTimeout(() => signal('SIGKILL'), 10_000)
    await this.#exited
    clearTimeout(timer)
  }
}
