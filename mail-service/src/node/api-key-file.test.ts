import { execFileSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SmallDisk } from '@movies-and-mail/test-kit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { apiKeyFileName, keptApiKey } from './api-key-file.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'api-key-file-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const readOnlyDisk = await SmallDisk.mount('64k')
await readOnlyDisk?.unmount()
if (!readOnlyDisk) {
  console.log(
    'the read-only key file test is skipped: it mounts a tmpfs, which needs root on Linux',
  )
}

describe('keptApiKey', () => {
  it('makes a key once, in a file of mode 0600, and gives the same key afterwards', async () => {
    const first = await keptApiKey(dir)
    expect(first).toEqual({
      key: expect.stringMatching(/^[\w-]{32}$/),
      path: join(dir, apiKeyFileName),
      made: true,
    })
    expect((await stat(first.path)).mode & 0o777).toBe(0o600)
    expect(await readFile(first.path, 'utf8')).toBe(`${first.key}\n`)
    expect(await keptApiKey(dir)).toEqual({ ...first, made: false })
  })

  it('makes DATA_DIR when it does not exist yet', async () => {
    const { path } = await keptApiKey(join(dir, 'a', 'b'))
    expect(path).toBe(join(dir, 'a', 'b', apiKeyFileName))
  })

  it('gives one key to starts that run at the same time', async () => {
    const keys = await Promise.all([1, 2, 3, 4].map(() => keptApiKey(dir)))
    expect(new Set(keys.map(({ key }) => key)).size).toBe(1)
    expect(keys.filter(({ made }) => made)).toHaveLength(1)
  })

  it('reads a key written by hand, trimmed', async () => {
    await writeFile(join(dir, apiKeyFileName), '  my-own-long-key-1234 \n', { mode: 0o600 })
    expect((await keptApiKey(dir)).key).toBe('my-own-long-key-1234')
  })

  it.each([0o644, 0o640, 0o604, 0o660])(
    'narrows a file of mode %o to 0600, and warns that whoever read it has the key',
    async (mode) => {
      const path = join(dir, apiKeyFileName)
      await writeFile(path, 'a-key-others-can-read\n')
      await chmod(path, mode)
      const warnings: string[] = []
      const kept = await keptApiKey(dir, { warn: (line) => warnings.push(line) })
      expect(kept).toEqual({ key: 'a-key-others-can-read', path, made: false })
      expect((await stat(path)).mode & 0o777).toBe(0o600)
      expect(warnings).toEqual([
        `warning: ${path} was open to other users (mode 0${mode.toString(8)}); it is 0600 now. ` +
          'Whoever read it has the key: delete the file to have a new key made, or set API_KEYS',
      ])
    },
  )

  it.skipIf(!readOnlyDisk)(
    'refuses a file open to other users that cannot be narrowed (on a read-only mount)',
    async () => {
      const disk = (await SmallDisk.mount('64k')) as SmallDisk
      try {
        const dataDir = join(disk.dir, 'data')
        const path = join(dataDir, apiKeyFileName)
        await mkdir(dataDir, { mode: 0o700 })
        await writeFile(path, 'a-key-others-can-read\n', { mode: 0o644 })
        execFileSync('mount', ['-o', 'remount,ro', disk.dir])
        await expect(keptApiKey(dataDir)).rejects.toThrow(
          `${path} is open to other users (mode 0644) and could not be made 0600 (EROFS); ` +
            'refusing to use its key',
        )
      } finally {
        await disk.unmount()
      }
    },
  )

  it('makes DATA_DIR 0700 and its key 0600 whatever the umask, narrowing a wider DATA_DIR', async () => {
    const before = process.umask(0)
    try {
      const fresh = join(dir, 'fresh')
      const { path } = await keptApiKey(fresh)
      expect((await stat(fresh)).mode & 0o777).toBe(0o700)
      expect((await stat(path)).mode & 0o777).toBe(0o600)
      await chmod(fresh, 0o755)
      await keptApiKey(fresh)
      expect((await stat(fresh)).mode & 0o777).toBe(0o700)
    } finally {
      process.umask(before)
    }
  })

  it('refuses a symbolic link and a file without a usable key', async () => {
    const path = join(dir, apiKeyFileName)
    await writeFile(join(dir, 'elsewhere'), 'a-key-somewhere-else\n', { mode: 0o600 })
    await symlink(join(dir, 'elsewhere'), path)
    await expect(keptApiKey(dir)).rejects.toThrow('is a symbolic link')
    await rm(path)
    await writeFile(path, 'short\n', { mode: 0o600 })
    await expect(keptApiKey(dir)).rejects.toThrow('holds no usable API key')
  })
})
