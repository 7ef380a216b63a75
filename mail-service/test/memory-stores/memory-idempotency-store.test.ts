import { describe, expect, it } from 'vitest'
import { describeIdempotencyStoreContract } from '../contracts/idempotency-store.contract.js'
import { MemoryIdempotencyStore } from '../support/memory-stores/memory-idempotency-store.js'

describeIdempotencyStoreContract('memory', async () => ({
  store: new MemoryIdempotencyStore(),
  cleanup: async () => {},
}))

describe('MemoryIdempotencyStore', () => {
  it('keeps at most maxKeys, forgetting the oldest first', async () => {
    const store = new MemoryIdempotencyStore({ maxKeys: 2 })
    const now = Date.now()
    const record = { fingerprint: 'f', takenAt: now, expiresAt: now + 60_000 }
    for (const key of ['a', 'b', 'c']) await store.take(key, record)
    expect(await store.take('a', record)).toBeNull()
    expect(await store.take('c', record)).toEqual(record)
  })
})
