// Bundles the two entries: dist/server.js for Node (every dependency inlined but LMDB and the
// MongoDB driver, listed in dist/package.json for scripts/package-micro.mjs) and dist/worker.js, a self-contained module
// Worker with every dependency inlined (it imports only the runtime's own `cloudflare:workers`);
// then the Worker's static assets, dist-worker/assets/ (outside dist, where wrangler would take
// them for modules of the Worker), from the Node entry's own answers.
import { readFileSync, rmSync } from 'node:fs'
import { build } from 'esbuild'
import { writeDistManifest } from '../../scripts/package-micro.mjs'
import { writeStaticAssets } from '../../scripts/static-assets.mjs'

const root = new URL('..', import.meta.url).pathname
// LMDB loads a native module, so it stays a package of its own; the MongoDB driver too, loaded
// only when MAIL_CONNECTION_URL is set, so that a start without it does not parse it.
const external = ['lmdb', 'mongodb']
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
}

// deta's browser build calls require('fs') only in Drive.put({ path }), which the service never
// uses; an empty module stands in so the Worker bundle needs no Node built-in.
const noNodeFs = {
  name: 'no-node-fs',
  setup(build) {
    build.onResolve({ filter: /^(node:)?fs$/ }, () => ({ path: 'fs', namespace: 'empty' }))
    build.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export default {}' }))
  },
}

// A fresh dist: with no_bundle, wrangler uploads as modules the files it finds beside worker.js,
// and a packaged dist holds node_modules.
rmSync(`${root}dist`, { recursive: true, force: true })
rmSync(`${root}dist-worker`, { recursive: true, force: true })

await Promise.all([
  build({
    ...common,
    entryPoints: { server: 'src/node/server.ts' },
    outdir: 'dist',
    // What loads on demand in chunks of its own (Swagger UI's files, two thirds of the bundle;
    // prom-client and pino; the MongoDB store), so that a start compiles none of it: one file
    // took 0.6 s to start.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    // The kit's Swagger UI files come in as text (package.json `imports` of http-kit), in a chunk
    // loaded by the first request for the docs.
    conditions: ['text-imports', 'module'],
    external,
    // Some bundled packages are CommonJS and require Node's built-ins, which an ES module can
    // only do through a require of its own.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  }),
  build({
    ...common,
    entryPoints: ['src/worker/worker.ts'],
    outfile: 'dist/worker.js',
    platform: 'browser',
    // `static-assets`: the kit's docs leave Swagger UI's files to the Worker's static assets.
    conditions: ['static-assets', 'workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    // The runtime's own modules (the Durable Object base class) are workerd's to provide.
    external: ['cloudflare:*'],
    minify: true,
    plugins: [noNodeFs],
  }),
])

writeDistManifest(`${root}dist`, JSON.parse(readFileSync(`${root}package.json`, 'utf8')), external)

// The Worker's static assets (wrangler.toml `[assets]`): the docs page and the files it loads,
// as the Node entry just built answers them, with their headers in `_headers`.
await writeStaticAssets({
  entry: 'dist/server.js',
  cwd: root,
  env: { API_KEYS: 'static-assets-build' },
  paths: ['/docs'],
  dir: `${root}dist-worker/assets`,
})
