import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { link, open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import {
  ownerOnly,
  ownerOnlyDir,
  warnOnce,
  writeOwnerOnlyFile,
} from '@movies-and-mail/embedded-store'

/** The key file's name inside DATA_DIR. */
export const apiKeyFileName = 'mail-service.api-key'

export type KeptApiKey = {
  key: string
  path: string
  /** Whether this start made the key (false: it was read from the file). */
  made: boolean
}

type Warn = (line: string) => void

/**
 * The mail-service's own API key for a run without API_KEYS: read from
 * `<dataDir>/mail-service.api-key`, or made once and kept there with mode 0600 (DATA_DIR 0700).
 * A key file open to other users is narrowed to 0600, and `warn` (a line on stderr by default)
 * says that whoever could read it has the key. Rejects, naming the file, when it stays open to
 * other users (a key others may read is no key), is not a plain file, or holds no usable key.
 * @example const { key, path } = await keptApiKey('.data')
 */
export async function keptApiKey(
  dataDir: string,
  { warn = warnOnce }: { warn?: Warn } = {},
): Promise<KeptApiKey> {
  const path = join(dataDir, apiKeyFileName)
  const openDir = await ownerOnlyDir(dataDir)
  if (openDir) warn(openDir)
  const read = await readKey(path, warn)
  if (read !== undefined) return { key: read, path, made: false }
  const key = randomBytes(24).toString('base64url')
  // Written whole under a name of its own, then linked into place: a start running at the same
  // time either sees the complete file or makes its own link fail and reads the winner's key.
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    await writeOwnerOnlyFile(draft, `${key}\n`, 'wx')
    await link(draft, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const winner = await readKey(path, warn)
    if (winner === undefined) throw error
    return { key: winner, path, made: false }
  } finally {
    await rm(draft, { force: true })
  }
  return { key, path, made: true }
}

/** The key kept in `path`; undefined when there is no such file. */
async function readKey(path: string, warn: Warn): Promise<string | undefined> {
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
      // Narrowed on the open file, so it is the file read that was narrowed.
      const refusal = await file.chmod(ownerOnly.file).then(
        () => undefined,
        (error: NodeJS.ErrnoException) => error.code ?? 'chmod failed',
      )
      if (refusal) {
        throw new Error(
          `${path} is open to other users (mode ${mode}) and could not be made 0600 ` +
            `(${refusal}); refusing to use its key. Run \`chmod 600 ${path}\` as its owner, ` +
            'or set API_KEYS',
        )
      }
      warn(
        `warning: ${path} was open to other users (mode ${mode}); it is 0600 now. Whoever ` +
          'read it has the key: delete the file to have a new key made, or set API_KEYS',
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
