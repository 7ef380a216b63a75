import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  BuiltEntry,
  canRunAsAnotherUser,
  entryAsUser,
  killBuiltEntries,
  modeAndOwner,
  modesIn,
  nobody,
  whyNotAsAnotherUser,
} from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ensureBuilt, startServer } from './support/run-server.js'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))
const files = ['mail-service.mdb', 'mail-service.mdb-lock', 'mail-service.api-key']

let parent: string
let dataDir: string
beforeAll(ensureBuilt)
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'mail-service-modes-'))
  dataDir = join(parent, 'data')
})
afterEach(async () => {
  await killBuiltEntries()
  await rm(parent, { recursive: true, force: true })
})

if (!canRunAsAnotherUser) {
  console.log(`mail-service DATA_DIR of another user: skipped; ${whyNotAsAnotherUser}`)
}

describe("mail-service's files are its owner's alone", () => {
  it('on a fresh DATA_DIR: the directory 0700, the store, its locks and the key 0600, whatever the umask', async () => {
    const umask = process.umask(0)
    const service = await startServer({ DATA_DIR: dataDir }).finally(() => process.umask(umask))
    expect((await modeAndOwner(dataDir)).mode).toBe('700')
    expect(await modesIn(dataDir, [...files, 'mail-service.lock'])).toEqual({
      'mail-service.mdb': '600',
      'mail-service.mdb-lock': '600',
      'mail-service.api-key': '600',
      'mail-service.lock': '600',
    })
    expect(await service.stop()).toEqual({ code: 0, signal: null })
    expect((await modeAndOwner(join(dataDir, 'mail-service.closed'))).mode).toBe('600')
    expect(service.output).not.toContain('warning')
  })

  it('on a DATA_DIR of 0755 with files of 0644: narrowed at start, the key with a warning', async () => {
    await (await startServer({ DATA_DIR: dataDir })).stop()
    await chmod(dataDir, 0o755)
    for (const name of [...files, 'mail-service.closed']) await chmod(join(dataDir, name), 0o644)
    const service = await startServer({ DATA_DIR: dataDir })
    expect((await modeAndOwner(dataDir)).mode).toBe('700')
    expect(await modesIn(dataDir, files)).toEqual({
      'mail-service.mdb': '600',
      'mail-service.mdb-lock': '600',
      'mail-service.api-key': '600',
    })
    const key = join(dataDir, 'mail-service.api-key')
    expect(service.stderr).toBe(
      `warning: ${key} was open to other users (mode 0644); it is 0600 now. Whoever read it ` +
        'has the key: delete the file to have a new key made, or set API_KEYS\n',
    )
  })

  it.skipIf(!canRunAsAnotherUser)(
    'on a DATA_DIR of another user: one warning line, and its own files 0600',
    async () => {
      await chmod(parent, 0o755)
      // Made by root and left open to everyone: nobody may write in it but not narrow it.
      await mkdir(dataDir)
      await chmod(dataDir, 0o777)
      const script = await entryAsUser('dist/server.js', nobody, { cwd: serviceDir, dir: parent })
      const service = await BuiltEntry.start(script, {
        cwd: serviceDir,
        env: { DATA_DIR: dataDir },
        inherit: ['PATH'],
      })
      // Both the store and the key file take DATA_DIR; the warning is said once.
      expect(service.stderr).toBe(
        `warning: ${dataDir} is open to other users (mode 0777) and could not be made 0700 ` +
          "(EPERM, owned by uid 0); make it this user's own with chmod/chown, or choose " +
          'another DATA_DIR\n',
      )
      for (const name of files) {
        expect([name, await modeAndOwner(join(dataDir, name))]).toEqual([
          name,
          { mode: '600', uid: nobody.uid },
        ])
      }
      expect(await service.stop()).toEqual({ code: 0, signal: null })
    },
  )
})
