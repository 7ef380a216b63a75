import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll } from 'vitest'
import { type ClientName, clientDir } from './client-package.js'
import type { MicroProcess } from './micro-process.js'

// What a user does with a client: pack it, install the tarball into a project of their own,
// compile and run code there. Installing needs the npm registry.

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))

/**
 * Why the npm registry cannot be reached, or undefined when `npm ping` answers; says so once,
 * naming what is skipped.
 */
export async function registryProblem(skipped: string): Promise<string | undefined> {
  try {
    await run('npm', ['ping', '--fetch-retries=0'], { timeout: 30_000 })
    return undefined
  } catch (error) {
    const { stderr = '', killed } = error as { stderr?: string; killed?: boolean }
    const reason =
      /request to \S+ failed, reason: .*/.exec(stderr) ?? /npm error code \S+/.exec(stderr)
    const problem = killed ? '`npm ping` had no answer in 30 s' : (reason?.[0] ?? String(error))
    console.log(`${skipped} skipped: the npm registry is unreachable (${problem})`)
    return problem
  }
}

/** `name@version` of a package as the workspace has it installed. */
export async function versionOf(name: string): Promise<string> {
  const manifest = await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')
  return `${name}@${(JSON.parse(manifest) as { version: string }).version}`
}

/** A file's text for a JSON value, as npm and editors write them. */
export const jsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

/** A user's project in a folder of its own, with the client's tarball packed into it. */
export class ConsumerProject {
  private constructor(
    readonly dir: string,
    readonly client: ClientName,
    readonly tarball: string,
    /** The paths the tarball holds. */
    readonly tarballPaths: string[],
  ) {}

  /** Packs the client; `npm pack` builds it first (its prepack script), as `npm publish` does. */
  static async pack(client: ClientName): Promise<ConsumerProject> {
    const dir = await mkdtemp(join(tmpdir(), `${client}-consumer-`))
    try {
      const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
        cwd: clientDir(client),
      })
      const [tarball] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
      if (!tarball) throw new Error(`npm pack printed no tarball: ${stdout}`)
      const paths = tarball.files.map((file) => file.path)
      return new ConsumerProject(dir, client, tarball.filename, paths)
    } catch (error) {
      await rm(dir, { recursive: true, force: true })
      throw error
    }
  }

  path(...parts: string[]): string {
    return join(this.dir, ...parts)
  }

  async write(files: Record<string, string>): Promise<void> {
    for (const [name, text] of Object.entries(files)) await writeFile(this.path(name), text)
  }

  /** Installs the tarball and `packages` (`name@version`), running no install script. */
  async install(...packages: string[]): Promise<void> {
    const args = ['install', '--no-audit', '--no-fund', '--ignore-scripts']
    await run('npm', [...args, `./${this.tarball}`, ...packages], {
      cwd: this.dir,
      timeout: 240_000,
    })
  }

  /** The installed client's package.json. */
  async manifest(): Promise<Record<string, unknown>> {
    const text = await readFile(this.installed('package.json'), 'utf8')
    return JSON.parse(text) as Record<string, unknown>
  }

  /** A path inside the installed client. */
  installed(...parts: string[]): string {
    return this.path('node_modules/@movies-and-mail', this.client, ...parts)
  }

  /** The project's own TypeScript compiler, run in the project. */
  tsc(...args: string[]) {
    const tsc = this.path('node_modules/typescript/bin/tsc')
    return run(process.execPath, [tsc, ...args], { cwd: this.dir })
  }

  /** A script of the project, run with plain node. */
  node(script: string) {
    return run(process.execPath, [script], { cwd: this.dir, timeout: 30_000 })
  }

  remove(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true })
  }
}

export type PackedClient = { readonly project: ConsumerProject; readonly service: MicroProcess }

/**
 * For a `describe` block: before its tests, the client packed into a user's project, its service
 * started, the project's files written for that service, the tarball and `packages` installed;
 * after them, the service stopped and the project removed.
 */
export function usePackedClient(
  client: ClientName,
  setup: {
    start: () => Promise<MicroProcess>
    files: (serviceUrl: string) => Record<string, string>
    packages: () => Promise<string[]>
  },
): PackedClient {
  let project: ConsumerProject | undefined
  let service: MicroProcess | undefined
  beforeAll(async () => {
    project = await ConsumerProject.pack(client)
    service = await setup.start()
    await project.write(setup.files(service.url))
    await project.install(...(await setup.packages()))
  }, 300_000)
  afterAll(async () => {
    await service?.stop()
    await project?.remove()
  })
  const ready = <T>(part: T | undefined): T => {
    if (part === undefined) throw new Error(`the packed ${client} was not set up`)
    return part
  }
  return {
    get project() {
      return ready(project)
    },
    get service() {
      return ready(service)
    },
  }
}
