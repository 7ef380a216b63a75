import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EmbeddedMailLog } from './embedded-mail-log.js'
import { describeMailLogContract } from './mail-log.contract.js'
import type { MailLogEntry } from './mail-log.js'

describeMailLogContract('embedded (nedb)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'maillog-'))
  const log = await EmbeddedMailLog.open<MailLogEntry>(dir, 'maillog')
  return {
    log,
    reopen: () => EmbeddedMailLog.open<MailLogEntry>(dir, 'maillog'),
    cleanup: async () => {
      await log.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
})

describe('EmbeddedMailLog', () => {
  it('creates DATA_DIR and keeps each log in its own file there', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'maillog-')), 'nested', 'data')
    const log = await EmbeddedMailLog.open(dir, 'outbox')
    await log.insert({ to: 'ada@example.com' })
    await log.close()
    expect(await readdir(dir)).toEqual(['outbox.db'])
    await rm(dir, { recursive: true, force: true })
  })

  it('refuses calls once closed, so health checks see it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'maillog-'))
    const log = await EmbeddedMailLog.open(dir, 'maillog')
    await log.close()
    await expect(log.ping()).rejects.toThrow('closed')
    await rm(dir, { recursive: true, force: true })
  })
})
