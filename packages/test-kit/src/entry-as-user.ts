import { statSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** The user nobody, which owns nothing the tests make. */
export const nobody = { uid: 65534, gid: 65534 } as const

/** Whether every folder from the root down to `path` lets other users through. */
function othersCanReach(path: string): boolean {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false
    if (dir === dirname(dir)) return true
  }
}

/**
 * Whether this process may run an entry as another user: root on Linux, in a checkout that other
 * users can reach (one inside a private folder, as `mktemp -d` makes, is not).
 */
export const canRunAsAnotherUser =
  process.platform === 'linux' &&
  process.getuid?.() === 0 &&
  othersCanReach(fileURLToPath(import.meta.url))

/** Why a test that runs a service as another user is skipped here, for its skip line. */
export const whyNotAsAnotherUser =
  'it runs the service as nobody, which needs root on Linux (as root, chmod never fails, so the ' +
  'service must run as someone else) and a checkout that other users can reach'

/**
 * Writes into `dir` a script that runs the built `entry` (from `cwd`) as the user `uid` and group
 * `gid`, and answers its path, for `BuiltEntry.start`: what a service does with a DATA_DIR that
 * belongs to someone else. The script is read as root, gives up root, then loads the entry,
 * which every user may read. Root only (`canRunAsAnotherUser`).
 * @example
 * const script = await entryAsUser('dist/server.js', nobody, { cwd, dir: scratch })
 * const service = await BuiltEntry.start(script, { cwd, env: { DATA_DIR } })
 */
export async function entryAsUser(
  entry: string,
  { uid, gid }: { uid: number; gid: number },
  { cwd, dir }: { cwd: string; dir: string },
): Promise<string> {
  const url = pathToFileURL(resolve(cwd, entry)).href
  const script = join(dir, `entry-as-${uid}.mjs`)
  const lines = [
    `process.setgroups([${gid}])`,
    `process.setgid(${gid})`,
    `process.setuid(${uid})`,
    `await import(${JSON.stringify(url)})`,
  ]
  await writeFile(script, `${lines.join('\n')}\n`)
  return script
}
