import { describe, expect, it } from 'vitest'
import { describeIdempotencyStoreContract } from '../../../test/contracts/idempotency-store.contract.js'
import { useMongoDatabase } from '../../../test/support/mongo-server.js'
import { MongoIdempotencyStore } from './mongo-idempotency-store.js'

describe('MongoIdempotencyStore on a MongoDB server', () => {
  const { db, other } = useMongoDatabase('MongoIdempotencyStore contract suite', 'mail_keys')
  let collections = 0
  const options = (collectionName: string) => ({
    timeoutMs: 5_000,
    collectionName,
  })

  describeIdempotencyStoreContract('MongoDB', async () => {
    const name = `keys_${++collections}`
    return {
      store: await MongoIdempotencyStore.open(db(), options(name)),
      reopen: () => MongoIdempotencyStore.open(other(), options(name)),
      expiresItself: 'a TTL index on expiresAt removes expired keys',
      cleanup: async () => {},
    }
  })

  it('lets one of many simultaneous takes of one key through, from two processes', async () => {
    const name = `keys_${++collections}`
    const stores = [
      await MongoIdempotencyStore.open(db(), options(name)),
      await MongoIdempotencyStore.open(other(), options(name)),
    ]
    const now = Date.now()
    const takes = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        stores[n % 2]?.take('k', { fingerprint: `fp${n}`, takenAt: now, expiresAt: now + 60_000 }),
      ),
    )
    expect(takes.filter((held) => held === null)).toHaveLength(1)
  })

  it('lets one of two processes take over an expired key', async () => {
    const name = `keys_${++collections}`
    const [first, second, third] = [
      await MongoIdempotencyStore.open(db(), options(name)),
      await MongoIdempotencyStore.open(db(), options(name)),
      await MongoIdempotencyStore.open(other(), options(name)),
    ]
    const now = Date.now()
    const record = { fingerprint: 'fp', takenAt: now - 120_000, expiresAt: now - 1 }
    await first?.take('k', record)
    const later = { ...record, takenAt: now, expiresAt: now + 60_000 }
    const takes = await Promise.all([second?.take('k', later), third?.take('k', later)])
    expect(takes.filter((held) => held === null)).toHaveLength(1)
    // The first process's answer no longer lands on the key another process holds.
    await first?.complete('k', { status: 201, body: '{}' }, record.takenAt)
    expect((await second?.take('k', later))?.answer).toBeUndefined()
  })
})
