// Bundles the Node entry and the web app, so that start-up runs plain JavaScript, compiles
// nothing, and the page needs no CDN.
import { copyFile, mkdir, rm } from 'node:fs/promises'
import { build } from 'esbuild'

await rm('dist', { recursive: true, force: true })
await mkdir('dist/web', { recursive: true })

await Promise.all([
  build({
    entryPoints: ['src/server.ts'],
    outdir: 'dist',
    // A chunk of its own for what loads on demand (the MongoDB driver), so start-up skips it.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Dependencies are bundled too: resolving and loading hundreds of files made start-up slow.
    // The MongoDB driver stays a package of its own (it loads optional native modules).
    external: ['mongodb'],
    // Bundled CommonJS (NeDB) requires Node's built-in modules.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    minify: true,
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
