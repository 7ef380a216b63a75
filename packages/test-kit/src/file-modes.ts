import { stat } from 'node:fs/promises'
import { join } from 'node:path'

/** A file's permission bits in octal (`'600'`) and its owner's uid. */
export async function modeAndOwner(path: string): Promise<{ mode: string; uid: number }> {
  const { mode, uid } = await stat(path)
  return { mode: (mode & 0o7777).toString(8), uid }
}

/** The permission bits of each of `names` in `dir`, by name. */
export async function modesIn(
  dir: string,
  names: readonly string[],
): Promise<Record<string, string>> {
  const modes = await Promise.all(
    names.map(async (name) => [name, (await modeAndOwner(join(dir, name))).mode] as const),
  )
  return Object.fromEntries(modes)
}
