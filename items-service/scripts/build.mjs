// Bundles the Node entry and the web app, so that start-up runs plain JavaScript, compiles
// nothing, and the page needs no CDN.
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises'
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
    entryPoints: { server: 'src/node/server.ts' },
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
