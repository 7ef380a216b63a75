import { chmod } from 'node:fs/promises'
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
import { afterEach, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))
const store = ['items-service.mdb', 'items-service.mdb-lock']

afterEach(killBuiltEntries)

/** Starts the built entry with no umask at all: the modes must not come from it. */
async function startWithoutUmask(dataDir: string): Promise<BuiltEntry> {
  const umask = process.umask(0)
  try {
    return await startService({ DATA_DIR: dataDir })
  } finally {
    process.umask(umask)
  }
}

if (!canRunAsAnotherUser) {
  console.log(`items-service DATA_DIR of another user: skipped; ${whyNotAsAnotherUser}`)
}

describe("items-service's files are its owner's alone", () => {
  it('on a fresh DATA_DIR: the directory 0700, every file 0600, whatever the umask', async () => {
    const dataDir = join(await temporaryDataDir(), 'data')
    const service = await startWithoutUmask(dataDir)
    expect((await modeAndOwner(dataDir)).mode).toBe('700')
    expect(await modesIn(dataDir, [...store, 'items-service.lock'])).toEqual({
      'items-service.mdb': '600',
      'items-service.mdb-lock': '600',
      'items-service.lock': '600',
    })
    expect(await service.stop()).toEqual({ code: 0, signal: null })
    expect((await modeAndOwner(join(dataDir, 'items-service.closed'))).mode).toBe('600')
    expect(service.output).not.toContain('warning')
  })

  it('on a DATA_DIR of 0755 with files of 0644: narrowed at start, without a warning', async () => {
    const dataDir = join(await temporaryDataDir(), 'data')
    await (await startService({ DATA_DIR: dataDir })).stop()
    await chmod(dataDir, 0o755)
    for (const name of [...store, 'items-service.closed']) await chmod(join(dataDir, name), 0o644)
    const service = await startService({ DATA_DIR: dataDir })
    expect((await modeAndOwner(dataDir)).mode).toBe('700')
    expect(await modesIn(dataDir, store)).toEqual({
      'items-service.mdb': '600',
      'items-service.mdb-lock': '600',
    })
    expect((await fetch(`${service.url}/items`)).status).toBe(200)
    expect(service.output).not.toContain('warning')
  })

  it.skipIf(!canRunAsAnotherUser)(
    'on a DATA_DIR whose files belong to another user: a warning line for each, and it serves',
    async () => {
      const parent = await temporaryDataDir()
      await chmod(parent, 0o755)
      const dataDir = join(parent, 'data')
      // A store made by root, then left open to everyone: nobody may use it but not narrow it.
      await (await startService({ DATA_DIR: dataDir })).stop()
      await chmod(dataDir, 0o777)
      for (const name of store) await chmod(join(dataDir, name), 0o666)
      const script = await entryAsUser('dist/server.js', nobody, { cwd: serviceDir, dir: parent })
      const service = await BuiltEntry.start(script, {
        cwd: serviceDir,
        env: { DATA_DIR: dataDir },
        inherit: ['PATH'],
      })
      const cannot = (path: string, mode: string, wanted: string) =>
        `warning: ${path} is open to other users (mode ${mode}) and could not be made ${wanted} ` +
        "(EPERM, owned by uid 0); make it this user's own with chmod/chown, or choose another DATA_DIR\n"
      expect(service.stderr).toBe(
        [
          cannot(dataDir, '0777', '0700'),
          cannot(join(dataDir, 'items-service.mdb'), '0666', '0600'),
          cannot(join(dataDir, 'items-service.mdb-lock'), '0666', '0600'),
        ].join(''),
      )
      // What the service itself made is its own.
      expect(await modeAndOwner(join(dataDir, 'items-service.lock'))).toEqual({
        mode: '600',
        uid: nobody.uid,
      })
      expect((await fetch(`${service.url}/items`)).status).toBe(200)
      expect(await service.stop()).toEqual({ code: 0, signal: null })
    },
  )
})
