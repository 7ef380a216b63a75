// Builds the Worker into dist-worker/, from the service `npm run build` made in dist/:
//
// - bundle-mongodb/: the modules `wrangler deploy --env mongodb` uploads as they are
//   (wrangler.toml: no_bundle, each .js a module). entry.js and the chunks it loads are the
//   service's code, split by esbuild from the MongoDB store (mongo-item-store.js), which the
//   object imports only with CONNECTION_URL; the store imports the driver from mongodb.js, the
//   driver alone, which wrangler's dry run bundles for the runtime (nodejs_compat) as `wrangler
//   deploy` would. So a start without MongoDB neither loads nor evaluates the driver.
// - bundle/: the same modules but those two, what `wrangler deploy` uploads by default. The
//   runtime compiles every module of an upload at each start, loaded or not: the driver's 0.6 MB
//   cost every start about 27 ms of CPU before the Worker could answer (bench/README.md › Where
//   the start goes), so an upload for the embedded store leaves it out.
// - assets/: the web app's files and the docs page with Swagger UI's files, as the built Node
//   entry answers them, and `_headers` with their headers (../../scripts/static-assets.mjs): the
//   platform serves them as static assets, without running the Worker or waking the object.
import { spawnSync } from 'node:child_process'
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { build } from 'esbuild'
import { writeStaticAssets } from '../../scripts/static-assets.mjs'
import { englishZodMessagesOnly } from './english-zod-messages-only.mjs'

const withDriver = 'dist-worker/bundle-mongodb'
const bundle = 'dist-worker/bundle'
/** The modules only an upload for MongoDB carries. */
const mongoModules = ['mongo-item-store.js', 'mongodb.js']
const driver = 'dist-worker/driver'
const wranglerToml = await readFile('wrangler.toml', 'utf8')

/** Every module imports the driver as the module beside it: every output is in one folder. */
const driverModule = {
  name: 'driver-module',
  setup(builder) {
    builder.onResolve({ filter: /^mongodb$/ }, () => ({ path: './mongodb.js', external: true }))
  },
}

await rm('dist-worker', { recursive: true, force: true })
await build({
  entryPoints: {
    entry: 'src/worker/worker.ts',
    // The object imports it on demand: with splitting, its output is the module that import names.
    'mongo-item-store': 'src/store/mongo/mongo-item-store.ts',
  },
  outdir: withDriver,
  splitting: true,
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'neutral',
  target: 'es2022',
  format: 'esm',
  // `static-assets`: the kit's docs leave Swagger UI's files to the static assets.
  conditions: ['static-assets', 'workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  external: ['node:*', 'cloudflare:*'],
  minify: true,
  plugins: [englishZodMessagesOnly, driverModule],
  logLevel: 'warning',
})

// The driver's SASLprep (SCRAM passwords) as it is built for Node: its table of code points
// gzipped (2.9 kB, unzipped when the driver loads) where the browser build, which wrangler would
// pick, carries it as 0.55 MB of base64 that every start of the Worker compiles with the upload.
const require = createRequire(import.meta.url)
const saslprep = require.resolve('@mongodb-js/saslprep', {
  paths: [dirname(require.resolve('mongodb'))],
})
// The driver as a module of its own, every export of the package named (esbuild cannot pass
// on a CommonJS package's exports with `export *`); wrangler takes a Worker's module, which
// has a default export.
const { default: _, ...exported } = await import('mongodb')
await mkdir(driver, { recursive: true })
await writeFile(
  join(driver, 'mongodb.js'),
  `export { ${Object.keys(exported).join(', ')} } from 'mongodb'\nexport default {}\n`,
)
await writeFile(
  join(driver, 'wrangler.json'),
  JSON.stringify({
    name: 'items-service-mongodb',
    main: 'mongodb.js',
    compatibility_date: /^compatibility_date = "([\d-]+)"/m.exec(wranglerToml)?.[1],
    compatibility_flags: ['nodejs_compat'],
    minify: true,
    alias: { '@mongodb-js/saslprep': saslprep },
  }),
)
const bundled = spawnSync(
  process.execPath,
  [require.resolve('wrangler/bin/wrangler.js'), ...['deploy', '--dry-run', '--outdir', 'out']],
  { cwd: driver, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
)
// Its output only matters when it fails: it warns of a module of the driver's that the
// runtime's Node layer stands in for, which the driver never calls on this path.
if (bundled.status !== 0) {
  process.stderr.write(bundled.stdout + bundled.stderr)
  throw new Error('wrangler could not bundle the MongoDB driver')
}
await cp(join(driver, 'out/mongodb.js'), join(withDriver, 'mongodb.js'))
await rm(driver, { recursive: true })
await cp(withDriver, bundle, {
  recursive: true,
  filter: (path) => !mongoModules.includes(basename(path)),
})

const webFiles = (await readdir('dist/web')).map((name) => `/assets/${name}`)
await writeStaticAssets({
  entry: 'dist/server.js',
  cwd: process.cwd(),
  paths: [...webFiles, '/docs'],
  dir: 'dist-worker/assets',
})
