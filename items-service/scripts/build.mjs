// Bundles the Node entry and the web app, so that start-up runs plain JavaScript, compiles
// nothing, and the page needs no CDN.
import { copyFile, mkdir, rm } from 'node:fs/promises'
import { build } from 'esbuild'

await rm('dist', { recursive: true, force: true })
await mkdir('dist/web', { recursive: true })

await Promise.all([
  build({
    entryPoints: ['src/server.ts'],
    outfile: 'dist/server.js',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
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
