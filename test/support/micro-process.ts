import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BuiltEntry } from '@movies-and-mail/test-kit'

export type MicroProcess = {
  url: string
  entry: BuiltEntry
  /** Stops the micro (SIGTERM, then SIGKILL) and removes its DATA_DIR. */
  stop: () => Promise<void>
}

const root = new URL('../../', import.meta.url)

/**
 * Starts a micro's built Node entry on 127.0.0.1 and a free port, with its own temporary
 * DATA_DIR, and resolves once it prints the address it listens on.
 */
export async function startMicro(
  micro: 'items-service' | 'mail-service',
  env: Record<string, string> = {},
): Promise<MicroProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), `${micro}-`))
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true })
  const entry = await BuiltEntry.start(new URL(`${micro}/dist/server.js`, root), {
    cwd: new URL(`${micro}/`, root),
    env: { DATA_DIR: dataDir, ...env },
  }).catch(async (error: unknown) => {
    await removeDataDir()
    throw error
  })
  return {
    url: entry.url,
    entry,
    stop: async () => {
      await entry.stop()
      await removeDataDir()
    },
  }
}
