import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import { describe, expect, it } from 'vitest'
import { EmbeddedSendCounter } from './embedded-send-counter.js'
import { describeSendCounterContract } from './send-counter.contract.js'

async function openStores() {
  const dir = await mkdtemp(join(tmpdir(), 'mail-sends-'))
  let env = await EmbeddedEnv.open(dir, 'mail-service')
  return {
    counter: new EmbeddedSendCounter(env),
    reopen: async () => {
      await env.close()
      env = await EmbeddedEnv.open(dir, 'mail-service')
      return new EmbeddedSendCounter(env)
    },
    cleanup: async () => {
      await env.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

describeSendCounterContract('embedded', openStores)

describe('EmbeddedSendCounter', () => {
  it('prunes buckets with no send left in their window', async () => {
    const { counter, cleanup } = await openStores()
    const bucket = { key: 'to:a@example.com', limit: { count: 1, windowMs: 60_000 } }
    await counter.take([bucket], 1_000_000)
    await counter.take([{ ...bucket, key: 'to:b@example.com' }], 1_050_000)
    expect(await counter.prune(1_070_000)).toBe(1)
    expect((await counter.take([bucket], 1_070_001)).admitted).toBe(true)
    await cleanup()
  })
})
