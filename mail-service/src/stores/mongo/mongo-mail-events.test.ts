import { describe } from 'vitest'
import { describeMailEventsContract } from '../../../test/contracts/mail-events.contract.js'
import { useMongoDatabase } from '../../../test/support/mongo-server.js'
import { MongoMailEvents } from './mongo-mail-events.js'

describe('MongoMailEvents on a MongoDB server', () => {
  const { db, other } = useMongoDatabase('MongoMailEvents contract suite', 'mail_events')
  const options = { timeoutMs: 5_000, retentionDays: 36_500 }
  describeMailEventsContract('MongoDB', async () => ({
    events: await MongoMailEvents.open(db(), options),
    other: await MongoMailEvents.open(other(), options),
    reopen: () => MongoMailEvents.open(other(), options),
    cleanup: async () => {},
  }))
})
