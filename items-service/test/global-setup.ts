import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))
const entry = join(serviceDir, 'dist/server.js')
/** The Worker's two uploads: the default one and the one with the MongoDB driver. */
const workerUploads = ['bundle', 'bundle-mongodb'].map((dir) =>
  join(serviceDir, 'dist-worker', dir, 'entry.js'),
)

function newestSourceChange(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return newestSourceChange(path)
      return entry.name.endsWith('.test.ts') ? 0 : statSync(path).mtimeMs
    }),
  )
}

function builtAt(file: string): number {
  try {
    return statSync(file).mtimeMs
  } catch {
    return -1
  }
}

function run(script: string): void {
  execFileSync(process.execPath, [script], { cwd: serviceDir, stdio: 'inherit' })
}

/**
 * Builds the Node entry, then the Worker from it, once, before any test file runs, when either
 * is missing or older than the sources: the integration tests start the real `dist/server.js`
 * and run the Worker's two uploads (dist-worker/) under Miniflare, and several test files
 * building them side by side would replace them under each other's running processes.
 */
export default function buildEntriesWhenStale(): void {
  const sources = newestSourceChange(join(serviceDir, 'src'))
  if (builtAt(entry) < sources) run('scripts/build.mjs')
  // The Worker holds the web app the Node build makes: it is stale when that is newer.
  const workerBuiltAt = Math.min(...workerUploads.map(builtAt))
  if (workerBuiltAt < Math.max(sources, builtAt(entry))) run('scripts/build-worker.mjs')
}
