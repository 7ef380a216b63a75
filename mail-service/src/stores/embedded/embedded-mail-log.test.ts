import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import {
  SortableIdSequence,
  StoreFullError,
  StoreUnavailableError,
} from '@movies-and-mail/store-kit'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { describeMailLogContract } from '../../../test/contracts/mail-log.contract.js'
import { firstIdAt, type MailLogEntry } from '../../ports/mail-log.js'
import { EmbeddedMailLog } from './embedded-mail-log.js'

describeMailLogContract('embedded (LMDB)', async ({ ids }) => {
  const dir = await mkdtemp(join(tmpdir(), 'maillog-'))
  let env = await EmbeddedEnv.open(dir, 'mail-service')
  let log = new EmbeddedMailLog<MailLogEntry>(env, 'maillog', { ids })
  return {
    log,
    reopen: async () => {
      await log.close()
      await env.close()
      env = await EmbeddedEnv.open(dir, 'mail-service')
      log = new EmbeddedMailLog<MailLogEntry>(env, 'maillog', { ids })
      return log
    },
    cleanup: async () => {
      await log.close()
      await env.close()
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
    const commit = vi.spyOn(env, 'commit').mockRejectedValue(new StoreFullError())
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

  it("files each owned record in the owners' index, in the commit of the record", async () => {
    const log = new EmbeddedMailLog(env, 'maillog')
    const [k1, k2] = ['1f'.repeat(16), '2e'.repeat(16)]
    const commit = vi.spyOn(env, 'commit')
    const mine = await log.insert({ n: 1 }, k1)
    const theirs = await log.insert({ n: 2 }, k2)
    await log.insert({ n: 3 })
    expect(commit).toHaveBeenCalledTimes(3)
    const index = env.database<string>('maillog.owners', 'string')
    expect([...index.getKeys()]).toEqual([`${k1}/${mine._id}`, `${k2}/${theirs._id}`])
    expect(await log.list({ limit: 10, owner: k1 })).toEqual([mine])
  })

  it("forgets a pruned record's entry in the owners' index", async () => {
    const log = new EmbeddedMailLog(env, 'maillog', { ids: new SortableIdSequence() })
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 40 * 86_400_000 })
    try {
      await log.insert({ n: 'old' }, '1f'.repeat(16))
    } finally {
      vi.useRealTimers()
    }
    const kept = await log.insert({ n: 'new' }, '1f'.repeat(16))
    await expect(log.prune(new Date(Date.now() - 86_400_000))).resolves.toBe(1)
    const index = env.database<string>('maillog.owners', 'string')
    expect([...index.getKeys()]).toEqual([`${'1f'.repeat(16)}/${kept._id}`])
  })

  it('rejects a record the disk has no room for, and keeps nothing of it', async () => {
    const log = new EmbeddedMailLog(env, 'maillog')
    const kept = await log.insert({ n: 1 })
    fillDisk()
    await expect(log.insert({ n: 2 }, '1f'.repeat(16))).rejects.toThrow(StoreFullError)
    expect(await log.list({ limit: 10 })).toEqual([kept])
    expect(await log.list({ limit: 10, owner: '1f'.repeat(16) })).toEqual([])
  })

  it('lets a failed write of the engine reach the caller as it is', async () => {
    const log = new EmbeddedMailLog(env, 'maillog')
    vi.spyOn(env, 'commit').mockRejectedValueOnce(new StoreUnavailableError())
    await expect(log.insert({ n: 1 })).rejects.toThrow(StoreUnavailableError)
  })

  it("fails ping while the store's probe of the disk fails, and answers again once it succeeds", async () => {
    const log = new EmbeddedMailLog(env, 'maillog')
    await expect(log.ping()).resolves.toBeUndefined()
    const probe = vi.spyOn(env, 'probe').mockRejectedValue(new StoreFullError())
    await expect(log.ping()).rejects.toThrow(StoreFullError)
    probe.mockRestore()
    await expect(log.ping()).resolves.toBeUndefined()
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

  /** A log whose ids come from a sequence of its own, and `count` records sent `days` ago. */
  const logWithOldRecords = async (count: number, days: number, pruneBatch?: number) => {
    const log = new EmbeddedMailLog(env, 'maillog', { ids: new SortableIdSequence(), pruneBatch })
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - days * 86_400_000 })
    try {
      for (let n = 0; n < count; n++) await log.insert({ n })
    } finally {
      vi.useRealTimers()
    }
    return log
  }

  it('prunes in commits of at most `pruneBatch` records', async () => {
    const log = await logWithOldRecords(5, 40, 2)
    const kept = await log.insert({ n: 'new' })
    const commit = vi.spyOn(env, 'commit')
    await expect(log.prune(new Date(Date.now() - 86_400_000))).resolves.toBe(5)
    expect(commit).toHaveBeenCalledTimes(3)
    expect(await log.list({ limit: 10 })).toEqual([kept])
  })

  it('removes only the keys before the first id of the time given', async () => {
    const log = await logWithOldRecords(3, 40)
    const recent = await log.insert({ n: 'recent' })
    const cutoff = new Date(Date.now() - 86_400_000)
    expect(recent._id >= firstIdAt(cutoff)).toBe(true)
    await expect(log.prune(cutoff)).resolves.toBe(3)
    expect(await log.list({ limit: 10 })).toEqual([recent])
  })

  it('keeps every record when a prune cannot commit, and prunes them once it can', async () => {
    const log = await logWithOldRecords(3, 40)
    const freeSpace = fillDisk()
    await expect(log.prune(new Date())).rejects.toThrow(StoreFullError)
    freeSpace()
    expect(await log.list({ limit: 10 })).toHaveLength(3)
    await expect(log.prune(new Date())).resolves.toBe(3)
  })

  it('counts each record once when prunes overlap', async () => {
    const log = await logWithOldRecords(4, 40, 3)
    const counts = await Promise.all([log.prune(new Date()), log.prune(new Date())])
    expect(counts.sort()).toEqual([0, 4])
  })

  it('refuses to prune once closed', async () => {
    const log = new EmbeddedMailLog(env, 'maillog')
    await log.close()
    await expect(log.prune(new Date())).rejects.toThrow('closed')
  })
})
