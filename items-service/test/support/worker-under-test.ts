import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { analyticsEngineStandIn, assetsOf } from '@movies-and-mail/test-kit'
import { Miniflare, type MiniflareOptions } from 'miniflare'

/**
 * The Worker exactly as `wrangler deploy` uploads it (`npm run build:worker`): the entry module,
 * and beside it the modules it imports; `mongodb`, as `wrangler deploy --env mongodb` does, the
 * MongoDB store's module and the driver's among them.
 */
export const uploads = {
  default: fileURLToPath(new URL('../../dist-worker/bundle/entry.js', import.meta.url)),
  mongodb: fileURLToPath(new URL('../../dist-worker/bundle-mongodb/entry.js', import.meta.url)),
}
export type Upload = keyof typeof uploads

const wranglerPath = fileURLToPath(new URL('../../wrangler.toml', import.meta.url))
const wranglerToml = readFileSync(wranglerPath, 'utf8')
/** The date and flags the deployment uses (wrangler.toml), so that the tests run what ships. */
export const compatibilityDate = /^compatibility_date = "([\d-]+)"/m.exec(wranglerToml)?.[1]
export const compatibilityFlags = [
  ...(/^compatibility_flags = \[([^\]]*)\]/m.exec(wranglerToml)?.[1] ?? '').matchAll(/"([^"]+)"/g),
].map((match) => match[1] as string)

/**
 * The upload's modules, the entry first, as wrangler.toml's rules make them (every .js a module
 * of its own): listed, since Miniflare given only the entry would follow its imports, and the
 * default upload has none of the MongoDB store's module that one of them imports when used.
 */
function modulesOf(entry: string) {
  const dir = dirname(entry)
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .sort((a, b) => Number(join(dir, b) === entry) - Number(join(dir, a) === entry))
    .map((name) => ({
      type: 'ESModule' as const,
      path: join(dir, name),
      contents: readFileSync(join(dir, name)),
    }))
}

type Persisted = Pick<MiniflareOptions, 'durableObjectsPersist'>

/** The static assets (the web app's files, the docs), in front of the Worker as deployed. */
export const assets = assetsOf(wranglerPath)

/**
 * The built Worker under Miniflare, with its static assets in front: its bindings are the settings (strings), its Durable
 * Objects keep their SQLite storage in `persistDir`, and what it prints is kept for assertions
 * (Miniflare would print it otherwise). `restart()` disposes of the runtime and starts a new one
 * on the same folder, as a redeploy or a moved object would.
 */
export class WorkerUnderTest {
  readonly #options: MiniflareOptions
  #mf: Miniflare
  readonly #answered = new Set<Response>()
  #stdout = ''
  #stderr = ''
  #url = ''

  private constructor(
    settings: Record<string, string>,
    persist: Persisted,
    upload: Upload,
    analytics: boolean,
  ) {
    const bundlePath = uploads[upload]
    if (!existsSync(bundlePath)) {
      throw new Error(
        `${bundlePath} is missing: run npm run build -w items-service, then npm run build:worker -w items-service`,
      )
    }
    const worker = {
      modules: modulesOf(bundlePath),
      // Without it, workerd refuses the module's path (it holds '..' relative to the cwd).
      modulesRoot: dirname(bundlePath),
      ...(assets && { assets }),
      compatibilityDate,
      compatibilityFlags,
      durableObjects: { ITEMS: { className: 'ItemsObject', useSQLite: true } },
      bindings: settings,
    }
    const shared = {
      ...persist,
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        stdout.setEncoding('utf8').on('data', (text: string) => {
          this.#stdout += text
        })
        stderr.setEncoding('utf8').on('data', (text: string) => {
          this.#stderr += text
        })
      },
    }
    // With `analytics`, an ANALYTICS dataset is bound: a stand-in that prints each data point.
    const standIn = { ANALYTICS: { scriptName: analyticsEngineStandIn.name } }
    this.#options = analytics
      ? { ...shared, workers: [{ ...worker, wrappedBindings: standIn }, analyticsEngineStandIn] }
      : { ...shared, ...worker }
    this.#mf = new Miniflare(this.#options)
  }

  /**
   * Starts the Worker as `upload` is deployed (the default one, without the MongoDB driver); its
   * objects are kept in `persistDir`, or in memory without one; with `analytics`, an Analytics
   * Engine dataset bound as ANALYTICS (a stand-in: `dataPointsIn(worker.stdout)`).
   */
  static async start(
    settings: Record<string, string>,
    persistDir?: string,
    upload: Upload = 'default',
    { analytics = false }: { analytics?: boolean } = {},
  ): Promise<WorkerUnderTest> {
    const worker = new WorkerUnderTest(
      settings,
      { durableObjectsPersist: persistDir ?? false },
      upload,
      analytics,
    )
    worker.#url = String(await worker.#mf.ready).replace(/\/$/, '')
    return worker
  }

  /** Where the runtime listens on loopback, for clients that need a socket of their own. */
  get url(): string {
    return this.#url
  }

  /** What the Worker's code printed to stdout (console.log), in order. */
  get stdout(): string {
    return this.#stdout
  }

  get stderr(): string {
    return this.#stderr
  }

  /** Sends a request through the runtime's front, as the platform hands it to the Worker. */
  async request(path: string, init?: RequestInit): Promise<Response> {
    const response = await this.#mf.dispatchFetch(`http://items.test${path}`, init as never)
    this.#answered.add(response as unknown as Response)
    return response as unknown as Response
  }

  /**
   * Whether every one of `paths` answers as a Worker whose settings do not parse: 503 and the
   * one message that tells a client no more (the log says which setting).
   */
  async refusesAsMisconfigured(paths: string[]): Promise<boolean> {
    const misconfigured = '{"error":"the service is misconfigured; its log says which setting"}'
    for (const path of paths) {
      const response = await this.request(path)
      if (response.status !== 503 || (await response.text()) !== misconfigured) return false
    }
    return true
  }

  async restart(): Promise<void> {
    await this.#dispose()
    this.#mf = new Miniflare(this.#options)
    this.#url = String(await this.#mf.ready).replace(/\/$/, '')
  }

  async stop(): Promise<void> {
    await this.#dispose()
  }

  /**
   * Cancels the bodies no one read (a stream left open, a file not read to its end) first:
   * Miniflare's disposal would wait for them.
   */
  async #dispose(): Promise<void> {
    const unread = [...this.#answered].filter((response) => !response.bodyUsed && response.body)
    this.#answered.clear()
    await Promise.allSettled(unread.map((response) => response.body?.cancel()))
    await this.#mf.dispose()
  }
}
