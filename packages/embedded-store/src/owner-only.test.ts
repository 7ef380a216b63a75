import { execFileSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SmallDisk } from '@movies-and-mail/test-kit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { narrowToOwner, ownerOnly, ownerOnlyDir, writeOwnerOnlyFile } from './owner-only.js'

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777

let dir: string
let umask: number
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'owner-only-'))
  // The modes must not come from the umask: none at all takes nothing away.
  umask = process.umask(0)
})
afterEach(async () => {
  process.umask(umask)
  await rm(dir, { recursive: true, force: true })
})

const probe = await SmallDisk.mount('64k')
await probe?.unmount()
if (!probe) console.log('the read-only mount test is skipped: it mounts a tmpfs, which needs root')

describe('narrowToOwner', () => {
  it('gives a file open to other users mode 0600, and a directory 0700', async () => {
    const file = join(dir, 'data.mdb')
    await writeFile(file, 'x')
    await chmod(file, 0o644)
    await chmod(dir, 0o755)
    expect(await narrowToOwner(file, ownerOnly.file)).toBeUndefined()
    expect(await narrowToOwner(dir, ownerOnly.directory)).toBeUndefined()
    expect(await modeOf(file)).toBe(0o600)
    expect(await modeOf(dir)).toBe(0o700)
  })

  it('passes over a path that is not there, and narrows what a symbolic link points to', async () => {
    expect(await narrowToOwner(join(dir, 'absent'), ownerOnly.file)).toBeUndefined()
    const volume = join(dir, 'volume')
    await mkdir(volume, { mode: 0o755 })
    await symlink(volume, join(dir, 'data'))
    expect(await narrowToOwner(join(dir, 'data'), ownerOnly.directory)).toBeUndefined()
    expect(await modeOf(volume)).toBe(0o700)
  })

  it('never narrows a shared directory (sticky bit, as /tmp), and warns', async () => {
    const shared = join(dir, 'shared')
    await mkdir(shared)
    await chmod(shared, 0o1777)
    expect(await narrowToOwner(shared, ownerOnly.directory)).toBe(
      `warning: ${shared} is open to other users (mode 1777) and could not be made 0700 ` +
        "(a shared directory (sticky bit)); make it this user's own with chmod/chown, or " +
        'choose another DATA_DIR',
    )
    expect(await modeOf(shared)).toBe(0o1777)
  })

  it.skipIf(!probe)('warns of a file it cannot narrow, on a read-only mount', async () => {
    const disk = (await SmallDisk.mount('64k')) as SmallDisk
    try {
      const file = join(disk.dir, 'data.mdb')
      await writeFile(file, 'x', { mode: 0o644 })
      execFileSync('mount', ['-o', 'remount,ro', disk.dir])
      expect(await narrowToOwner(file, ownerOnly.file)).toMatch(
        `warning: ${file} is open to other users (mode 0644) and could not be made 0600 (EROFS)`,
      )
    } finally {
      await disk.unmount()
    }
  })
})

describe('ownerOnlyDir', () => {
  it('makes the directory and its parents 0700', async () => {
    const data = join(dir, 'a', 'data')
    expect(await ownerOnlyDir(data)).toBeUndefined()
    expect(await modeOf(data)).toBe(0o700)
    expect(await modeOf(join(dir, 'a'))).toBe(0o700)
  })
})

describe('writeOwnerOnlyFile', () => {
  it('writes a new file of mode 0600, and gives a file that was there mode 0600', async () => {
    const file = join(dir, 'mark')
    await writeOwnerOnlyFile(file, 'one')
    expect(await modeOf(file)).toBe(0o600)
    await chmod(file, 0o644)
    await writeOwnerOnlyFile(file, 'two')
    expect(await modeOf(file)).toBe(0o600)
    await expect(writeOwnerOnlyFile(file, 'three', 'wx')).rejects.toThrow('EEXIST')
  })
})
