import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import { describe, expect, it } from 'vitest'
import { describeIdempotencyStoreContract } from '../../../test/contracts/idempotency-store.contract.js'
import { EmbeddedIdempotencyStore } from './embedded-idempotency-store.js'

async function openStores() {
  const dir = await mkdtemp(join(tmpdir(), 'mail-idempotency-'))
  let env = await EmbeddedEnv.open(dir, 'mail-service')
  return {
    store: new EmbeddedIdempotencyStore(env),
    reopen: async () => {
      await env.close()
      env = await EmbeddedEnv.open(dir, 'mail-service')
      return new EmbeddedIdempotencyStore(env)
    },
    cleanup: async () => {
      await env.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

describeIdempotencyStoreContract('embedded', openStores)

describe('EmbeddedIdempotencyStore', () => {
  it('lets one of two simultaneous requests take a key', async () => {
    const { store, cleanup } = await openStores()
    const now = Date.now()
    const record = { fingerprint: 'f', takenAt: now, expiresAt: now + 60_000 }
    const results = await Promise.all([store.take('k', record), store.take('k', record)])
    expect(results.filter((result) => result === null)).toHaveLength(1)
    await cleanup()
  })

  it('keeps the key of a request a previous process never finished, answered as orphaned', async () => {
    const { store, reopen, cleanup } = await openStores()
    const now = Date.now()
    const record = { fingerprint: 'f', takenAt: now, expiresAt: now + 60_000 }
    await store.take('k', record)
    expect(await store.take('k', { ...record, fingerprint: 'g' })).toEqual(record)
    const restarted = await reopen()
    expect(await restarted.take('k', { ...record, fingerprint: 'g' })).toEqual({
      ...record,
      orphaned: true,
    })
    await cleanup()
  })
})
