import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EmbeddedEnv, NoSpaceError, StorageWriteError } from '@movies-and-mail/embedded-store'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { EmbeddedLogs } from './embedded-logs.js'
import { EmbeddedMailLog } from './embedded-mail-log.js'
import { describeMailLogContract } from './mail-log.contract.js'
import type { MailLogEntry } from './mail-log.js'

describeMailLogContract('embedded (LMDB)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'maillog-'))
  let logs = new EmbeddedLogs(dir)
  return {
    log: await logs.open<MailLogEntry>('maillog'),
    reopen: async () => {
      await logs.close()
      logs = new EmbeddedLogs(dir)
      return logs.open<MailLogEntry>('maillog')
    },
    cleanup: async () => {
      await logs.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
})

describe('EmbeddedMailLog', () => {
  let dir: string
  let env: EmbeddedEnv
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maillog-'))
    env = await EmbeddedEnv.open(dir, 'mail-service')
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    await env.close()
    await rm(dir, { recursive: true, force: true })
  })

  /** Every commit fails as on a full disk until the returned function frees the space. */
  const fillDisk = () => {
    const commit = vi.spyOn(env, 'commit').mockRejectedValue(new NoSpaceError())
    return () => commit.mockRestore()
  }

  it('keeps both logs in the service store file, apart from each other', async () => {
    const mailLog = new EmbeddedMailLog(env, 'maillog')
    const outbox = new EmbeddedMailLog(env, 'outbox')
    const sent = await mailLog.insert({ email: 'ada@example.com' })
    const kept = await outbox.insert({ to: 'ada@example.com' })
    expect(await mailLog.list({ limit: 10 })).toEqual([sent])
    expect(await outbox.list({ limit: 10 })).toEqual([kept])
    expect(await readdir(dir)).toContain('mail-service.mdb')
    expect((await readdir(dir)).filter((file) => file.endsWith('.db'))).toEqual([])
  })

  it('rejects a record the disk has no room for, and keeps nothing of it', async () => {
    const log = new EmbeddedMailLog(env, 'maillog')
    const kept = await log.insert({ n: 1 })
    fillDisk()
    await expect(log.insert({ n: 2 })).rejects.toThrow(NoSpaceError)
    expect(await log.list({ limit: 10 })).toEqual([kept])
  })

  it('lets a failed write of the engine reach the caller as it is', async () => {
    const log = new EmbeddedMailLog(env, 'maillog')
    vi.spyOn(env, 'commit').mockRejectedValueOnce(new StorageWriteError())
    await expect(log.insert({ n: 1 })).rejects.toThrow(StorageWriteError)
  })

  it('fails ping while the disk is full, and answers again once there is room', async () => {
    const log = new EmbeddedMailLog(env, 'maillog')
    await expect(log.ping()).resolves.toBeUndefined()
    const freeSpace = fillDisk()
    await expect(log.insert({ n: 1 })).rejects.toThrow(NoSpaceError)
    await expect(log.ping()).rejects.toThrow(NoSpaceError)
    await expect(log.ping()).rejects.toThrow(NoSpaceError)
    freeSpace()
    await expect(log.ping()).resolves.toBeUndefined()
    expect(await log.list({ limit: 10 })).toEqual([])
  })

  it('finishes the writes in flight when closed, then refuses calls, so health checks see it', async () => {
    const log = new EmbeddedMailLog(env, 'maillog')
    const writing = log.insert({ n: 1 })
    await log.close()
    await expect(writing).resolves.toMatchObject({ n: 1 })
    await expect(log.ping()).rejects.toThrow('closed')
    await expect(log.insert({ n: 2 })).rejects.toThrow('closed')
    expect(await new EmbeddedMailLog(env, 'maillog').list({ limit: 10 })).toHaveLength(1)
  })
})
