import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/http-kit'
import { build, type Plugin } from 'esbuild'
import { Miniflare } from 'miniflare'
import type { ItemStore } from '../../src/store/item-store.js'
import type { Call, OpenOptions } from './store-harness.worker.js'
import { compatibilityDate, compatibilityFlags } from './worker-under-test.js'

const require = createRequire(import.meta.url)
const source = fileURLToPath(new URL('./store-harness.worker.ts', import.meta.url))

/**
 * The driver by its absolute path, left for wrangler to bundle: the harness is bundled in a
 * temporary folder, from where `mongodb` would not resolve.
 */
const driverByPath: Plugin = {
  name: 'driver-by-path',
  setup(builder) {
    const driver = require.resolve('mongodb')
    builder.onResolve({ filter: /^mongodb$/ }, () => ({ path: driver, external: true }))
  },
}

/**
 * Bundles the harness as the items Worker is bundled (scripts/build.mjs): esbuild for our code;
 * with the MongoDB driver, then wrangler's dry run, which bundles the driver for the runtime.
 */
async function bundle(dir: string, mongodb: boolean): Promise<string> {
  const outfile = join(dir, 'harness.js')
  await build({
    entryPoints: [source],
    outfile,
    bundle: true,
    platform: 'neutral',
    target: 'es2022',
    format: 'esm',
    conditions: ['workerd', 'worker', 'browser', 'text-imports'],
    mainFields: ['browser', 'module', 'main'],
    external: ['node:*', 'cloudflare:*'],
    define: { WITH_MONGODB: String(mongodb) },
    plugins: mongodb ? [driverByPath] : [],
    logLevel: 'error',
  })
  if (!mongodb) return outfile
  const flags = compatibilityFlags.flatMap((flag) => ['--compatibility-flags', flag])
  const bundled = spawnSync(
    process.execPath,
    [
      require.resolve('wrangler/bin/wrangler.js'),
      ...['deploy', outfile, '--dry-run', '--outdir', join(dir, 'bundle')],
      ...['--name', 'store-harness', '--compatibility-date', String(compatibilityDate), ...flags],
    ],
    // Run where no wrangler.toml is found: the harness is not the service.
    { cwd: dir, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
  )
  if (bundled.status !== 0)
    throw new Error(`wrangler could not bundle the harness:\n${bundled.stderr}`)
  const [script] = (await readdir(join(dir, 'bundle'))).filter((name) => name.endsWith('.js'))
  return join(dir, 'bundle', script as string)
}

/** `{ $bytes }` back to bytes, anywhere in a value. */
function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode)
  if (value && typeof value === 'object') {
    if ('$bytes' in value) return new Uint8Array(Buffer.from(value.$bytes as string, 'base64'))
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, decode(field)]))
  }
  return value
}

/** The error the store threw inside the runtime, as the kit's class of the same name. */
function rethrown({ name, message }: { name: string; message: string }): Error {
  if (name === 'StoreUnavailableError') return new StoreUnavailableError(message)
  if (name === 'StoreFullError') return new StoreFullError(message)
  return Object.assign(new Error(message), { name })
}

/**
 * ItemStores that live in Durable Objects inside workerd, under Miniflare, each reached through
 * a proxy that sends every call to its object: for running the ItemStore contract where the
 * stores run. Each `open()` is a new object, so a new, empty store.
 */
export class StoreHarness {
  readonly #mf: Miniflare
  readonly #dir: string

  private constructor(mf: Miniflare, dir: string) {
    this.#mf = mf
    this.#dir = dir
  }

  /** Bundles the harness (with the MongoDB driver when `mongodb`) and starts it. */
  static async start({ mongodb = false } = {}): Promise<StoreHarness> {
    const dir = await mkdtemp(join(tmpdir(), 'items-store-harness-'))
    const scriptPath = await bundle(dir, mongodb)
    const mf = new Miniflare({
      modules: true,
      scriptPath,
      modulesRoot: dir,
      compatibilityDate,
      compatibilityFlags,
      durableObjects: { STORES: { className: 'StoreObject', useSQLite: true } },
    })
    await mf.ready
    return new StoreHarness(mf, dir)
  }

  /** A fresh store in an object of its own. */
  async open(options: OpenOptions = {}): Promise<ItemStore> {
    const object = randomUUID()
    const call = async (method: Call['method'], ...args: unknown[]) => {
      const response = await this.#mf.dispatchFetch(`http://harness.test/${object}`, {
        method: 'POST',
        body: JSON.stringify({ method, args } satisfies Call),
      })
      const answer = (await response.json()) as { value?: unknown; thrown?: never }
      if (answer.thrown) throw rethrown(answer.thrown)
      return decode(answer.value) as never
    }
    await call('open', options)
    return {
      list: () => call('list'),
      find: (id) => call('find', id),
      query: (query) => call('query', query),
      insert: (item) => call('insert', item),
      update: (id, fields, ifMatch) => call('update', id, fields, ifMatch),
      remove: (id, ifMatch) => call('remove', id, ifMatch),
      restore: (items, options) => call('restore', items, options),
      usage: () => call('usage'),
      ping: async () => {
        await call('ping')
      },
      close: async () => {
        await call('close')
      },
    }
  }

  async dispose(): Promise<void> {
    await this.#mf.dispose()
    await rm(this.#dir, { recursive: true, force: true })
  }
}
