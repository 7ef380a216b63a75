import { describe, expect, it } from 'vitest'
import { describeMailLogContract } from '../../../test/contracts/mail-log.contract.js'
import { useMongoDatabase } from '../../../test/support/mongo-server.js'
import type { MailLogEntry } from '../../ports/mail-log.js'
import { MongoMailLog } from './mongo-mail-log.js'

describe('MongoMailLog on a MongoDB server', () => {
  const { db, other } = useMongoDatabase('MongoMailLog contract suite', 'mail_log')
  let collections = 0
  // The contract makes records of 40 days ago: a TTL of 100 years keeps them for its prunes.
  const options = (name: string) => ({ name, timeoutMs: 5_000, retentionDays: 36_500 })

  describeMailLogContract('MongoDB', async ({ ids }) => {
    const name = `maillog_${++collections}`
    return {
      log: await MongoMailLog.open<MailLogEntry>(db(), { ...options(name), ids }),
      reopen: () => MongoMailLog.open<MailLogEntry>(other(), { ...options(name), ids }),
      cleanup: async () => {},
    }
  })

  it("lists the other process's records with its own, newest first", async () => {
    const name = `maillog_${++collections}`
    const one = await MongoMailLog.open(db(), options(name))
    const two = await MongoMailLog.open(other(), options(name))
    const first = await one.insert({ n: 1 })
    const second = await two.insert({ n: 2 })
    expect(await one.list({ limit: 10 })).toEqual([second, first])
  })

  it('changes the TTL of the records when the retention changed', async () => {
    const name = `maillog_${++collections}`
    await MongoMailLog.open(db(), options(name))
    await MongoMailLog.open(other(), { ...options(name), retentionDays: 30 })
    const indexes = await db().collection(name).indexes()
    expect(indexes.find((index) => index.name === 'createdAt_ttl')?.expireAfterSeconds).toBe(
      30 * 86_400,
    )
  })
})
