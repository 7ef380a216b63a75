// Builds the Worker into dist-worker/, in two steps, from the web app `npm run build` made in
// dist/web. First the service's own code, as the Node entry is made (the kit's docs files as
// text, the built web app as a module: a Worker has no file system), with the MongoDB driver and
// Node's built-ins left out; then wrangler's dry run bundles that with the driver for the
// runtime (nodejs_compat), as `wrangler deploy` would: dist-worker/bundle/entry.js, what the
// tests run under Miniflare and what a deploy uploads.
import { spawnSync } from 'node:child_process'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { build } from 'esbuild'
import { englishZodMessagesOnly } from './english-zod-messages-only.mjs'

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
