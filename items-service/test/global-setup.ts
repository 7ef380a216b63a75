import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))
const entry = join(serviceDir, 'dist/server.js')

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

function builtAt(): number {
  try {
    return statSync(entry).mtimeMs
  } catch {
    return -1
  }
}

/**
 * Builds the Node entry once, before any test file runs, when it is missing or older than the
 * sources: the integration tests start the real `dist/server.js`, and several test files
 * building it side by side would replace it under each other's running processes.
 */
export default function buildEntryWhenStale(): void {
  if (builtAt() >= newestSourceChange(join(serviceDir, 'src'))) return
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: serviceDir, stdio: 'inherit' })
}
