// Bundles the Node entry and the web app, so that start-up runs plain JavaScript, compiles
// nothing, and the page needs no CDN: dist/ is what a Node host or a container gets. The Worker
// is built by scripts/build-worker.mjs, from the web app built here.
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises'
import { build } from 'esbuild'
import { writeDistManifest } from '../../scripts/package-micro.mjs'
import { englishZodMessagesOnly } from './english-zod-messages-only.mjs'

// The MongoDB driver and LMDB stay packages of their own (they load native modules); they are
// listed in dist/package.json, which scripts/package-micro.mjs installs into dist/node_modules.
const external = ['mongodb', 'lmdb']

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
    // Some bundled packages (prom-client, pino) are CommonJS and require Node's built-ins, which
    // an ES module can only do through a require of its own.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    // The kit's Swagger UI files come in as text (package.json `imports` of http-kit), in a chunk
    // loaded by the first request for the docs.
    conditions: ['text-imports', 'module'],
    minify: !process.env.NO_MINIFY,
    plugins: [englishZodMessagesOnly],
    sourcemap: true,
    logLevel: 'warning',
  }),
  build({
    entryPoints: { app: 'src/web/ui/main.tsx' },
    outdir: 'dist/web',
    // What loads on demand (the sign-in's oidc-client-ts, only where the page signs users in)
    // in a chunk of its own, beside app.js: /assets/ serves the folder's files by name.
    splitting: true,
    chunkNames: '[name]-[hash]',
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
