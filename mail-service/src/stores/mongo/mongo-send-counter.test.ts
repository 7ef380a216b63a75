import { describe, expect, it } from 'vitest'
import { describeSendCounterContract } from '../../../test/contracts/send-counter.contract.js'
import { useMongoDatabase } from '../../../test/support/mongo-server.js'
import type { Bucket } from '../../ports/send-counter.js'
import { MongoSendCounter } from './mongo-send-counter.js'

describe('MongoSendCounter on a MongoDB server', () => {
  const { db, other } = useMongoDatabase('MongoSendCounter contract suite', 'mail_counts')
  let collections = 0
  const options = (collectionName: string) => ({ timeoutMs: 5_000, collectionName })

  describeSendCounterContract('MongoDB', async () => {
    const name = `counts_${++collections}`
    return {
      counter: await MongoSendCounter.open(db(), options(name)),
      reopen: () => MongoSendCounter.open(other(), options(name)),
      cleanup: async () => {},
    }
  })

  it('counts a limit once across two processes sending at the same moment', async () => {
    const name = `counts_${++collections}`
    const counters = [
      await MongoSendCounter.open(db(), options(name)),
      await MongoSendCounter.open(other(), options(name)),
    ]
    const perKey: Bucket = { key: 'key:abc', limit: { count: 5, windowMs: 60_000 } }
    const to = (email: string): Bucket => ({
      key: `to:${email}`,
      limit: { count: 3, windowMs: 3_600_000 },
    })
    const now = Date.now()
    const takes = await Promise.all(
      Array.from({ length: 20 }, (_, n) => counters[n % 2]?.take([perKey, to('ada@x.com')], now)),
    )
    expect(takes.filter((take) => take?.admitted)).toHaveLength(3)
    // Each send the address refused was given back in the key's bucket: 2 of its 5 remain.
    const more = await Promise.all(
      [0, 1, 2].map((n) => counters[n % 2]?.take([perKey, to('grace@x.com')], now)),
    )
    expect(more.filter((take) => take?.admitted)).toHaveLength(2)
  })

  it('gives the bucket an expiry on the database clock, as far ahead as the TAT is', async () => {
    const name = `counts_${++collections}`
    const counter = await MongoSendCounter.open(db(), options(name))
    const bucket: Bucket = { key: 'key:abc', limit: { count: 2, windowMs: 60_000 } }
    // A process whose clock is a day behind still sets an expiry 30 s from the database's now.
    const started = Date.now()
    await counter.take([bucket], started - 86_400_000)
    const stored = await db().collection<{ _id: string; expiresAt: Date }>(name).findOne({
      _id: bucket.key,
    })
    const ahead = (stored?.expiresAt.getTime() ?? 0) - started
    expect(ahead).toBeGreaterThan(25_000)
    expect(ahead).toBeLessThan(35_000)
  })
})
