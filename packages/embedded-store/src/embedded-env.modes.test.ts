import { chmod, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EmbeddedEnv } from './embedded-env.js'

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777

let parent: string
let dataDir: string
let umask: number
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'embedded-env-modes-'))
  dataDir = join(parent, 'data')
  // The modes must not come from the umask: none at all takes nothing away.
  umask = process.umask(0)
})
afterEach(async () => {
  process.umask(umask)
  await rm(parent, { recursive: true, force: true })
})

/** Opens the store of `a-service`, keeping what it warns of. */
async function opened(): Promise<{ env: EmbeddedEnv; warnings: string[] }> {
  const warnings: string[] = []
  const env = await EmbeddedEnv.open(dataDir, 'a-service', { warn: (line) => warnings.push(line) })
  return { env, warnings }
}

describe('EmbeddedEnv and the modes of its files', () => {
  it('makes DATA_DIR 0700 and every file of its store 0600, the mark of a clean stop too', async () => {
    const { env, warnings } = await opened()
    expect(await modeOf(dataDir)).toBe(0o700)
    for (const name of ['a-service.mdb', 'a-service.mdb-lock', 'a-service.lock']) {
      expect([name, await modeOf(join(dataDir, name))]).toEqual([name, 0o600])
    }
    await env.close()
    expect(await modeOf(join(dataDir, 'a-service.closed'))).toBe(0o600)
    expect(warnings).toEqual([])
  })

  it('narrows a DATA_DIR of 0755 and files of 0644 at start', async () => {
    await (await opened()).env.close()
    await chmod(dataDir, 0o755)
    for (const name of ['a-service.mdb', 'a-service.mdb-lock', 'a-service.closed']) {
      await chmod(join(dataDir, name), 0o644)
    }
    const { env, warnings } = await opened()
    expect(await modeOf(dataDir)).toBe(0o700)
    expect(await modeOf(join(dataDir, 'a-service.mdb'))).toBe(0o600)
    expect(await modeOf(join(dataDir, 'a-service.mdb-lock'))).toBe(0o600)
    await env.close()
    expect(warnings).toEqual([])
  })

  it('warns once of a DATA_DIR it may not narrow, and still keeps its own files 0600', async () => {
    await (await opened()).env.close()
    // A shared directory (sticky bit) is never narrowed: it stands for any that cannot be.
    await chmod(dataDir, 0o1777)
    const { env, warnings } = await opened()
    expect(warnings).toEqual([
      `warning: ${dataDir} is open to other users (mode 1777) and could not be made 0700 ` +
        "(a shared directory (sticky bit)); make it this user's own with chmod/chown, or " +
        'choose another DATA_DIR',
    ])
    expect(await modeOf(join(dataDir, 'a-service.mdb'))).toBe(0o600)
    await env.close()
  })
})
