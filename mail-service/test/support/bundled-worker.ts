import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { Miniflare, type MiniflareOptions } from 'miniflare'
import { compatibilityDate } from './worker-under-test.js'

/** A test Worker under Miniflare, bundled from TypeScript; `dispose` removes its bundle too. */
export type BundledWorker = { mf: Miniflare; dispose(): Promise<void> }

/**
 * A test-only Worker module (`source`, TypeScript), bundled as the mail Worker is
 * (scripts/build.mjs) and run inside workerd under Miniflare with `durableObjects`, at the
 * deployment's compatibility date; `persist`, a folder for the objects' storage that outlives
 * the instance.
 */
export async function bundledWorker(
  source: string,
  durableObjects: MiniflareOptions['durableObjects'],
  { persist }: { persist?: string } = {},
): Promise<BundledWorker> {
  const dir = await mkdtemp(join(tmpdir(), 'mail-test-worker-'))
  const scriptPath = join(dir, 'worker.js')
  await build({
    entryPoints: [source],
    outfile: scriptPath,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser', 'text-imports'],
    mainFields: ['browser', 'module', 'main'],
    external: ['cloudflare:*'],
    logLevel: 'error',
  })
  const mf = new Miniflare({
    // The module itself, not its path, which Miniflare would parse in Node for imports first.
    modules: [{ type: 'ESModule', path: scriptPath, contents: await readFile(scriptPath) }],
    modulesRoot: dir,
    compatibilityDate,
    durableObjects,
    ...(persist && { durableObjectsPersist: persist }),
  })
  await mf.ready
  return {
    mf,
    dispose: async () => {
      await mf.dispose()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
