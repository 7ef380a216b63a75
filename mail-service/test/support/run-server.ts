import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { BuiltEntry, type BuiltEntryOptions, type FailedStart } from '@movies-and-mail/test-kit'

const packageDir = fileURLToPath(new URL('../..', import.meta.url))

/** Builds dist/ unless `npm test` (or a previous run) already has. */
export function ensureBuilt(): void {
  const built = ['dist/server.js', 'dist/worker.js', 'dist-worker/assets/_headers']
  if (built.every((file) => existsSync(`${packageDir}${file}`))) return
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: packageDir, stdio: 'inherit' })
}

/** A clean environment: none of the caller's settings leak in, the test CA stays trusted. */
const options = (env: Record<string, string>): BuiltEntryOptions => ({
  cwd: packageDir,
  env,
  inherit: ['PATH', 'NODE_EXTRA_CA_CERTS'],
})

/** Starts the built Node entry on a free port (PORT=0) and waits for its banner. */
export function startServer(env: Record<string, string>): Promise<BuiltEntry> {
  return BuiltEntry.start('dist/server.js', options(env))
}

/** Runs the built Node entry expecting it not to start: how it exited and what it printed. */
export function failedStart(env: Record<string, string>): Promise<FailedStart> {
  return BuiltEntry.startExpectingFailure('dist/server.js', options(env))
}
