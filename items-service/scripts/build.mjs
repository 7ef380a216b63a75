// Bundles the Node entry and the web app, so that start-up runs plain JavaScript, compiles
// nothing, and the page needs no CDN; then the Worker, in dist-worker/ (dist/ is what a Node host
// or a container gets).
import { spawnSync } from 'node:child_process'
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { build } from 'esbuild'
import { writeDistManifest } from '../../scripts/package-micro.mjs'

// The MongoDB driver and LMDB stay packages of their own (they load native modules); they are
// listed in dist/package.json, which scripts/package-micro.mjs installs into dist/node_modules.
const external = ['mongodb', 'lmdb']

/**
 * zod re-exports every language of its error messages (`z.locales`); the service speaks English
 * only, and the other languages were over half of what start-up had to compile.
 */
const englishZodMessagesOnly = {
  name: 'english-zod-messages-only',
  setup(builder) {
    builder.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/zod/')
        ? { path: 'zod-locales', namespace: 'zod-locales' }
        : undefined,
    )
    builder.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js'",
      resolveDir: process.cwd(),
    }))
  },
}

await rm('dist', { recursive: true, force: true })
await mkdir('dist/web', { recursive: true })

await Promise.all([
  build({
    entryPoints: {
      server: 'src/node/server.ts',
      // npm run export / import
      'export-items': 'src/node/export-items.ts',
      'import-items': 'src/node/import-items.ts',
    },
    outdir: 'dist',
    // A chunk of its own for what loads on demand (the MongoDB driver), so start-up skips it.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Dependencies are bundled too: resolving and loading hundreds of files made start-up slow.
    external,
    // The kit's Swagger UI files come in as text (package.json `imports` of http-kit), in a chunk
    // loaded by the first request for the docs.
    conditions: ['text-imports', 'module'],
    minify: !process.env.NO_MINIFY,
    plugins: [englishZodMessagesOnly],
    sourcemap: true,
    logLevel: 'warning',
  }),
  build({
    entryPoints: ['src/web/ui/main.tsx'],
    outfile: 'dist/web/app.js',
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
  }),
  copyFile('src/web/app.css', 'dist/web/app.css'),
  copyFile('src/web/icon.svg', 'dist/web/icon.svg'),
])

writeDistManifest('dist', JSON.parse(await readFile('package.json', 'utf8')), external)

// The Worker, in two steps. First the service's own code, as the Node entry is made (text
// imports of the kit's docs files, the built web app as a module: a Worker has no file system),
// with the MongoDB driver and Node's built-ins left out; then wrangler's dry run bundles that
// with the driver for the runtime (nodejs_compat), as `wrangler deploy` would:
// dist-worker/bundle/entry.js, what the tests run under Miniflare.
await rm('dist-worker', { recursive: true, force: true })
await mkdir('dist-worker')
const webFiles = (await readdir('dist/web')).filter((name) => !name.endsWith('.map'))
const encoded = await Promise.all(
  webFiles.map(async (name) => [name, (await readFile(`dist/web/${name}`)).toString('base64')]),
)
await writeFile(
  'dist-worker/web-assets.js',
  `export default ${JSON.stringify(Object.fromEntries(encoded))}\n`,
)
await build({
  entryPoints: { entry: 'src/worker/worker.ts' },
  outdir: 'dist-worker',
  bundle: true,
  platform: 'neutral',
  target: 'es2022',
  format: 'esm',
  conditions: ['workerd', 'worker', 'browser', 'text-imports'],
  mainFields: ['browser', 'module', 'main'],
  external: ['mongodb', 'node:*', 'cloudflare:*'],
  alias: { 'built-web-assets': './dist-worker/web-assets.js' },
  plugins: [englishZodMessagesOnly],
  logLevel: 'warning',
})
// Its output only matters when it fails: it warns of a module of the driver's that the
// runtime's Node layer stands in for, which the driver never calls on this path.
const bundled = spawnSync(
  process.execPath,
  [
    createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js'),
    ...['deploy', '--dry-run', '--outdir', 'dist-worker/bundle'],
  ],
  { encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
)
if (bundled.status !== 0) {
  process.stderr.write(bundled.stdout + bundled.stderr)
  throw new Error('wrangler could not bundle the Worker')
}
