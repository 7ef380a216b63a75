// The MongoDB wire-protocol stand-in of the tests (packages/test-kit/src/mongo-stand-in.ts), for
// the bench: it is TypeScript, so esbuild bundles it, bson included, into the run's folder, and
// the bench imports that. One stand-in for the tests and the bench, no copy of it.
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const source = fileURLToPath(
  new URL('../../packages/test-kit/src/mongo-stand-in.ts', import.meta.url),
)

/** Starts a stand-in on a free loopback port; `options` as `MongoStandIn.start` takes them. */
export async function startMongoStandIn(work, options) {
  const outfile = join(work, 'mongo-stand-in.mjs')
  await build({
    entryPoints: [source],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
  })
  const { MongoStandIn } = await import(pathToFileURL(outfile).href)
  return MongoStandIn.start(options)
}
