import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type MicroProcess, startMicro } from './micro-process.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))

/** Starts a micro as `startMicro` does, building it first when its Node entry is missing. */
export async function startBuiltMicro(
  micro: 'items-service' | 'mail-service',
  env: Record<string, string> = {},
): Promise<MicroProcess> {
  if (!existsSync(join(root, micro, 'dist/server.js'))) {
    await run('npm', ['run', 'build', '-w', micro], { cwd: root })
  }
  return startMicro(micro, env)
}
