import { chmod, mkdir, open, stat } from 'node:fs/promises'

/** The modes of what the services keep: for their owner alone, whatever the process umask. */
export const ownerOnly = { directory: 0o700, file: 0o600 } as const

const modeOf = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0')

/**
 * Gives `path` the owner-only `mode` (`ownerOnly.file` or `.directory`) when it has another;
 * nothing when there is no such path. Answers a warning line when it stays open to other users:
 * chmod failed (the path belongs to another user, or is on a read-only mount), or it is a
 * shared directory (sticky bit, like /tmp), which is never narrowed.
 * @example await narrowToOwner('.data/items-service.mdb', ownerOnly.file) // undefined: it is 0600 now
 */
export async function narrowToOwner(path: string, mode: number): Promise<string | undefined> {
  let stats: Awaited<ReturnType<typeof stat>>
  try {
    // A link is followed, as the engine follows it: DATA_DIR may be a link to a volume.
    stats = await stat(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  if ((stats.mode & 0o777) === mode) return undefined
  const wide = (stats.mode & 0o077) !== 0
  if (stats.isDirectory() && stats.mode & 0o1000) {
    return wide
      ? openToOthers(path, stats.mode, mode, 'a shared directory (sticky bit)')
      : undefined
  }
  try {
    await chmod(path, mode)
    return undefined
  } catch (error) {
    if (!wide) return undefined
    const { code } = error as NodeJS.ErrnoException
    const owner = stats.uid === process.getuid?.() ? '' : `, owned by uid ${stats.uid}`
    return openToOthers(path, stats.mode, mode, `${code ?? 'chmod failed'}${owner}`)
  }
}

function openToOthers(path: string, mode: number, wanted: number, why: string): string {
  return (
    `warning: ${path} is open to other users (mode ${modeOf(mode)}) and could not be made ` +
    `${modeOf(wanted)} (${why}); make it this user's own with chmod/chown, or choose another DATA_DIR`
  )
}

/**
 * Makes `dir` (with its parents) and gives it mode 0700: only its owner may list it or reach the
 * files in it. A warning line when it stays open to other users.
 */
export async function ownerOnlyDir(dir: string): Promise<string | undefined> {
  await mkdir(dir, { recursive: true, mode: ownerOnly.directory })
  return narrowToOwner(dir, ownerOnly.directory)
}

/**
 * Creates `path` (or truncates it) with mode 0600 set explicitly, and writes `data` into it.
 * @param flag 'wx' to fail with EEXIST when the file exists
 */
export async function writeOwnerOnlyFile(path: string, data: string, flag = 'w'): Promise<void> {
  const file = await open(path, flag, ownerOnly.file)
  try {
    // The mode given to open is narrowed by the umask, and is not applied to a file that exists.
    await file.chmod(ownerOnly.file)
    await file.writeFile(data)
  } finally {
    await file.close()
  }
}

const warned = new Set<string>()

/** Writes `line` to stderr, once a process: the store and the key file may find one DATA_DIR. */
export function warnOnce(line: string): void {
  if (warned.has(line)) return
  warned.add(line)
  process.stderr.write(`${line}\n`)
}
