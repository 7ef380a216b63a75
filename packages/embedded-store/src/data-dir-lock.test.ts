import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DataDirInUseError, lockDataDir } from './data-dir-lock.js'

/** Another process listening on a lock socket, answering as a holder would, until it is killed. */
function holder(path: string, says: string): Promise<ChildProcess> {
  const script = `require('node:net').createServer((s) => s.end(process.argv[2]))
    .listen(process.argv[1], () => console.log('holding'))`
  const child = spawn(process.execPath, ['-e', script, path, says], { stdio: 'pipe' })
  return new Promise((resolve) => child.stdout.once('data', () => resolve(child)))
}

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

describe('lockDataDir', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'data-dir-lock-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('refuses a second holder, naming the directory and the first one', async () => {
    const lock = await lockDataDir(dir, 'items-service')
    const second = lockDataDir(dir, 'items-service')
    await expect(second).rejects.toThrow(DataDirInUseError)
    await expect(lockDataDir(dir, 'items-service')).rejects.toThrow(
      new RegExp(`DATA_DIR ${dir} is in use by items-service \\(pid ${process.pid} on .+\\)`),
    )
    await lock.release()
    await (await lockDataDir(dir, 'items-service')).release()
  })

  it('names the owner another process reports', async () => {
    const owner = { pid: 4242, host: 'box', since: '2026-01-01T00:00:00.000Z', service: 'x' }
    const child = await holder(join(dir, 'x.lock'), JSON.stringify(owner))
    try {
      await expect(lockDataDir(dir, 'x')).rejects.toMatchObject({ owner })
    } finally {
      await killed(child)
    }
  })

  it('takes over a lock whose process was killed', async () => {
    const child = await holder(join(dir, 'x.lock'), '{}')
    await killed(child)
    const lock = await lockDataDir(dir, 'x')
    await expect(lockDataDir(dir, 'x')).rejects.toThrow(DataDirInUseError)
    await lock.release()
  })

  it('keeps one lock a service, so two services share a directory', async () => {
    const items = await lockDataDir(dir, 'items-service')
    const mail = await lockDataDir(dir, 'mail-service')
    await Promise.all([items.release(), mail.release()])
  })

  it('works for a directory whose path is too long for a socket', async () => {
    const deep = join(dir, 'd'.repeat(60), 'e'.repeat(60))
    await mkdir(deep, { recursive: true })
    const lock = await lockDataDir(deep, 'items-service')
    await expect(lockDataDir(deep, 'items-service')).rejects.toThrow(DataDirInUseError)
    await lock.release()
  })
})
