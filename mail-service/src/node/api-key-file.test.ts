import { chmod, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { apiKeyFileName, keptApiKey } from './api-key-file.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'api-key-file-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

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

  it.each([0o644, 0o640, 0o604, 0o660])('refuses a file of mode %o, saying why', async (mode) => {
    const path = join(dir, apiKeyFileName)
    await writeFile(path, 'a-key-others-can-read\n')
    await chmod(path, mode)
    await expect(keptApiKey(dir)).rejects.toThrow(
      `${path} is open to other users (mode 0${mode.toString(8)}); refusing to use its key`,
    )
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
