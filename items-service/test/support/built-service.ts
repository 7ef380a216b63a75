import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BuiltEntry, type BuiltEntryOptions, type FailedStart } from '@movies-and-mail/test-kit'
import { afterAll } from 'vitest'

const serviceDir = fileURLToPath(new URL('../..', import.meta.url))

/** The settings given and PATH: nothing from the shell that runs the tests leaks in. */
const options = (env: Record<string, string>, more: BuiltEntryOptions = {}): BuiltEntryOptions => ({
  cwd: serviceDir,
  env,
  inherit: ['PATH'],
  ...more,
})

/**
 * The built entry, `node dist/server.js` (test/global-setup.ts builds it), once it listens;
 * `openFiles` lowers the files it may open (`ulimit -n`).
 */
export function startService(
  env: Record<string, string>,
  { openFiles }: { openFiles?: number } = {},
): Promise<BuiltEntry> {
  return BuiltEntry.start('dist/server.js', options(env, openFiles ? { openFiles } : {}))
}

/** Runs the built entry expecting it not to start: how it exited and what it printed. */
export function failedStart(env: Record<string, string>): Promise<FailedStart> {
  return BuiltEntry.startExpectingFailure('dist/server.js', options(env))
}

const dataDirs: string[] = []
// Registered as the test file imports this module: a hook registered inside a test is not run.
afterAll(async () => {
  await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A fresh temporary DATA_DIR, removed after the test file. */
export async function temporaryDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'items-service-data-'))
  dataDirs.push(dir)
  return dir
}

/** A local port that nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export function sleep(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms))
}
