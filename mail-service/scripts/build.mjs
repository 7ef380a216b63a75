// Bundles the two entries: dist/server.js for Node (dependencies stay in node_modules) and
// dist/worker.js, a self-contained module Worker with every dependency inlined.
import { createRequire } from 'node:module'
import { build } from 'esbuild'

const require = createRequire(import.meta.url)

const root = new URL('..', import.meta.url).pathname
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

// The workspace's own packages export their TypeScript sources, which Node cannot load: they are
// bundled, and so are the files they import as text (the kit's Swagger UI files, condition
// `text-imports`); every other package stays in node_modules.
const bundleWorkspacePackages = {
  name: 'bundle-workspace-packages',
  setup(build) {
    build.onResolve({ filter: /^@movies-and-mail\// }, (args) => ({
      path: require.resolve(args.path),
    }))
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.with.type === 'text' ? { path: createRequire(args.importer).resolve(args.path) } : null,
    )
  },
}

await Promise.all([
  build({
    ...common,
    entryPoints: ['src/node/server.ts'],
    outfile: 'dist/server.js',
    platform: 'node',
    conditions: ['text-imports', 'module'],
    packages: 'external',
    plugins: [bundleWorkspacePackages],
  }),
  build({
    ...common,
    entryPoints: ['src/worker/worker.ts'],
    outfile: 'dist/worker.js',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser', 'text-imports'],
    mainFields: ['browser', 'module', 'main'],
    minify: true,
    plugins: [noNodeFs],
  }),
])
