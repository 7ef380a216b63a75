import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import { build, type Plugin } from 'esbuild'
import { Miniflare } from 'miniflare'
import type { ItemStore } from '../../src/store/item-store.js'
import type { Call, OpenOptions } from './store-harness.worker.js'
import { compatibilityDate, compatibilityFlags } from './worker-under-test.js'

const source = fileURLToPath(new URL('./store-harness.worker.ts', import.meta.url))

/** The MongoDB driver's module as the Worker ships it (`npm run build:worker`). */
const driverModule = fileURLToPath(
  new URL('../../dist-worker/bundle-mongodb/mongodb.js', import.meta.url),
)

/** The driver imported as the module beside the harness, as the Worker's own modules import it. */
const driverBeside: Plugin = {
  name: 'driver-beside',
  setup(builder) {
    builder.onResolve({ filter: /^mongodb$/ }, () => ({ path: './mongodb.js', external: true }))
  },
}

/**
 * Bundles the harness as the items Worker is built (scripts/build-worker.mjs): esbuild for our
 * code; the driver is the Worker's own module (mongodb.js, which wrangler bundled for the
 * runtime), copied beside it: the collection object's module imports it, whether or not a store
 * of the harness uses MongoDB (`mongodb`).
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
    plugins: [driverBeside],
    logLevel: 'error',
  })
  if (!existsSync(driverModule)) {
    throw new Error(`${driverModule} is missing: run npm run build:worker -w items-service`)
  }
  await cp(driverModule, join(dir, 'mongodb.js'))
  return outfile
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

/** The error the store threw inside the runtime, as store-kit's class of the same name. */
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
      modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }],
      compatibilityDate,
      compatibilityFlags,
      durableObjects: {
        STORES: { className: 'StoreObject', useSQLite: true },
        ITEMS: { className: 'ItemsObject', useSQLite: true },
      },
    })
    await mf.ready
    return new StoreHarness(mf, dir)
  }

  /**
   * A fresh store in an object of its own; `throughObject`: the Worker's store, over a
   * collection object of its own (the service's `ItemsObject`, on its SQLite storage).
   */
  async open(options: OpenOptions = {}, { throughObject = false } = {}): Promise<ItemStore> {
    const object = `${throughObject ? 'through-object/' : ''}${randomUUID()}`
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
      update: (id, fields, ifMatch, by) => call('update', id, fields, ifMatch, by),
      remove: (id, ifMatch, by) => call('remove', id, ifMatch, by),
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
