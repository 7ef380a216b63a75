import { access, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DataDirInUseError } from '@movies-and-mail/embedded-store'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EmbeddedStores } from './embedded-stores.js'

describe('EmbeddedStores', () => {
  let dir: string
  beforeEach(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'mail-logs-')), 'nested', 'data')
  })
  afterEach(() => rm(join(dir, '..', '..'), { recursive: true, force: true }))

  it('takes nothing of DATA_DIR until a log is asked for', async () => {
    const stores = new EmbeddedStores(dir)
    await stores.close()
    await expect(access(dir)).rejects.toThrow('ENOENT')
  })

  it('creates DATA_DIR and keeps records across a close and a new open', async () => {
    const first = new EmbeddedStores(dir)
    const sent = await (await first.open('maillog')).insert({ email: 'ada@example.com' })
    await first.close()
    const second = new EmbeddedStores(dir)
    expect(await (await second.open('maillog')).list({ limit: 10 })).toEqual([sent])
    await second.close()
  })

  it('opens one store for both logs', async () => {
    const stores = new EmbeddedStores(dir)
    const mailLog = await stores.open('maillog')
    const outbox = await stores.open('outbox')
    await mailLog.insert({ n: 1 })
    await expect(outbox.list({ limit: 10 })).resolves.toEqual([])
    await stores.close()
  })

  it('is refused DATA_DIR while another holder has it, and given it once that one closes', async () => {
    const first = new EmbeddedStores(dir)
    await first.open('maillog')
    const second = new EmbeddedStores(dir)
    await expect(second.open('maillog')).rejects.toThrow(DataDirInUseError)
    await expect(second.open('maillog')).rejects.toThrow(
      `DATA_DIR ${dir} is in use by mail-service (pid ${process.pid}`,
    )
    await second.close()
    await first.close()
    const third = new EmbeddedStores(dir)
    await expect(third.open('maillog')).resolves.toBeDefined()
    await third.close()
  })
})
