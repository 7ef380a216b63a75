// Builds each workspace whose built entry is older than anything it is built from, and only
// those, so that a second `npm start` answers in about a second instead of rebuilding all.
// `npm run build` still builds everything, as CI and the tests do.
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// A path, not a URL's: a checkout under a folder with a space in its name works too.
const root = fileURLToPath(new URL('..', import.meta.url))
const kit = ['packages/http-kit/src', 'packages/http-kit/package.json']
const embedded = ['packages/embedded-store/src', 'packages/embedded-store/package.json']
const client = ['packages/items-client/src', 'packages/items-client/package.json']
const mongo = ['packages/mongo-kit/src', 'packages/mongo-kit/package.json']
const store = ['packages/store-kit/src', 'packages/store-kit/package.json']
const everyBuild = ['package-lock.json', 'scripts/package-micro.mjs', 'scripts/static-assets.mjs']

/**
 * Each micro: the file its build writes last, and what it is built from. The page bundles the
 * items client from its sources, so nothing that starts needs the client's own build.
 */
const workspaces = [
  {
    name: 'items-service',
    built: 'items-service/dist/server.js',
    from: [
      'items-service/src',
      'items-service/scripts',
      'items-service/package.json',
      'items-service/wrangler.toml',
      ...kit,
      ...embedded,
      ...mongo,
      ...store,
      ...client,
    ],
  },
  {
    name: 'mail-service',
    built: 'mail-service/dist/server.js',
    from: [
      'mail-service/src',
      'mail-service/scripts',
      'mail-service/package.json',
      ...kit,
      ...embedded,
      ...mongo,
      ...store,
    ],
  },
]

/** The latest change time of a file, or of any file under a folder (tests left out); 0 if none. */
function newest(path) {
  let stats
  try {
    stats = statSync(path)
  } catch {
    return 0
  }
  if (!stats.isDirectory()) return /\.test\.ts$/.test(path) ? 0 : stats.mtimeMs
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), 0)
}

const asked = process.argv.slice(2)
for (const { name, built, from } of workspaces) {
  if (asked.length > 0 && !asked.includes(name)) continue
  const builtAt = newest(join(root, built))
  const changedAt = Math.max(...[...from, ...everyBuild].map((path) => newest(join(root, path))))
  if (builtAt > changedAt) continue
  process.stderr.write(
    `${name}: ${builtAt === 0 ? 'not built yet' : 'sources changed'}, building\n`,
  )
  execFileSync('npm', ['run', 'build', '-w', name], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}
