import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { link, mkdir, open, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** The key file's name inside DATA_DIR. */
export const apiKeyFileName = 'mail-service.api-key'

export type KeptApiKey = {
  key: string
  path: string
  /** Whether this start made the key (false: it was read from the file). */
  made: boolean
}

/**
 * The mail-service's own API key for a run without API_KEYS: read from
 * `<dataDir>/mail-service.api-key`, or made once and kept there with mode 0600. Rejects, naming the
 * file, when it is open to other users, is not a plain file, or holds no usable key: a key others
 * may read is no key.
 * @example const { key, path } = await keptApiKey('.data')
 */
export async function keptApiKey(dataDir: string): Promise<KeptApiKey> {
  const path = join(dataDir, apiKeyFileName)
  const read = await readKey(path)
  if (read !== undefined) return { key: read, path, made: false }
  await mkdir(dataDir, { recursive: true })
  const key = randomBytes(24).toString('base64url')
  // Written whole under a name of its own, then linked into place: a start running at the same
  // time either sees the complete file or makes its own link fail and reads the winner's key.
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    await writeFile(draft, `${key}\n`, { mode: 0o600, flag: 'wx' })
    await link(draft, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const winner = await readKey(path)
    if (winner === undefined) throw error
    return { key: winner, path, made: false }
  } finally {
    await rm(draft, { force: true })
  }
  return { key, path, made: true }
}

/** The key kept in `path`; undefined when there is no such file. */
async function readKey(path: string): Promise<string | undefined> {
  let file: Awaited<ReturnType<typeof open>>
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new Error(`${path} is a symbolic link; the API key file must be a plain file`)
    }
    throw error
  }
  try {
    // Checked on the open file, so it is the file read that was checked.
    const stats = await file.stat()
    if (!stats.isFile()) throw new Error(`${path} is not a plain file`)
    if ((stats.mode & 0o077) !== 0) {
      const mode = (stats.mode & 0o777).toString(8).padStart(4, '0')
      throw new Error(
        `${path} is open to other users (mode ${mode}); refusing to use its key. ` +
          `Run \`chmod 600 ${path}\`, or set API_KEYS`,
      )
    }
    const key = (await file.readFile('utf8')).trim()
    if (!/^[\x21-\x7e]{16,}$/.test(key) || key.includes(',')) {
      throw new Error(`${path} holds no usable API key; delete it to have a new one made`)
    }
    return key
  } finally {
    await file.close()
  }
}
