import { MongoClient, ObjectId } from 'mongodb'
import { describe, expect, it } from 'vitest'
import { pick, useStandInState } from '../../../test/support/mongo-stand-in-state.js'
import { firstIdAt, type MailLogEntry } from '../../ports/mail-log.js'

const { open, standIn } = useStandInState()
const entry: MailLogEntry = {
  email: 'ada@example.com',
  name: 'Ada',
  output: { id: '<20261123120000.1@mg.example.com>', message: 'Queued. Thank you.' },
}

describe('MongoMailLog, as the server sees it', () => {
  it("creates the TTL index on createdAt at MAILLOG_RETENTION_DAYS, and the owners' index", async () => {
    await (await open()).open('maillog')
    expect(pick(standIn().received('createIndexes')[0], 'createIndexes', 'indexes')).toEqual({
      createIndexes: 'maillog',
      indexes: [
        { key: { createdAt: 1 }, name: 'createdAt_ttl', expireAfterSeconds: 90 * 86_400 },
        { key: { owner: 1, _id: -1 }, name: 'owner_id' },
      ],
    })
  })

  it('reads the newest _id before each insert, to make one after it', async () => {
    const log = await (await open()).open<MailLogEntry>('maillog')
    await log.insert(entry)
    expect(
      standIn()
        .commandNames()
        .filter((name) => name === 'find' || name === 'insert'),
    ).toEqual(['find', 'insert'])
    expect(pick(standIn().received('find')[0], 'find', 'filter', 'sort', 'limit')).toEqual({
      find: 'maillog',
      filter: {},
      sort: { _id: -1 },
      limit: 1,
    })
  })

  it('inserts the record with its _id as an ObjectId and createdAt the time in it', async () => {
    const log = await (await open()).open<MailLogEntry>('outbox')
    const stored = await log.insert(entry)
    expect(stored).toEqual({ ...entry, _id: expect.stringMatching(/^[0-9a-f]{24}$/) })
    const seconds = Number.parseInt(stored._id.slice(0, 8), 16)
    expect(pick(standIn().received('insert')[0], 'insert', 'documents')).toEqual({
      insert: 'outbox',
      documents: [{ ...entry, _id: new ObjectId(stored._id), createdAt: new Date(seconds * 1000) }],
    })
  })

  it('lists a page newest first from the _id index, and answers records as they were given', async () => {
    const log = await (await open()).open<MailLogEntry>('maillog')
    const stored = await log.insert(entry)
    const before = 'f'.repeat(24)
    expect(await log.list({ limit: 20, before })).toEqual([stored])
    expect(pick(standIn().received('find').at(-1), 'filter', 'sort', 'limit')).toEqual({
      filter: { _id: { $lt: new ObjectId(before) } },
      sort: { _id: -1 },
      limit: 20,
    })
  })

  it('keeps the owner in the document, and reads a page of one owner from its index', async () => {
    const log = await (await open()).open<MailLogEntry>('maillog')
    const owner = '1f'.repeat(16)
    const stored = await log.insert(entry, owner)
    expect(pick(standIn().received('insert')[0], 'documents')).toEqual({
      documents: [expect.objectContaining({ ...entry, _id: new ObjectId(stored._id), owner })],
    })
    const before = 'f'.repeat(24)
    expect(await log.list({ limit: 20, before, owner })).toEqual([stored])
    expect(pick(standIn().received('find').at(-1), 'filter', 'sort', 'limit', 'hint')).toEqual({
      filter: { owner, _id: { $lt: new ObjectId(before) } },
      sort: { _id: -1 },
      limit: 20,
      hint: 'owner_id',
    })
  })

  it('prunes the records whose _id is before the first id of the time given', async () => {
    const log = await (await open()).open('maillog')
    const olderThan = new Date('2026-08-25T12:00:00Z')
    await log.prune(olderThan)
    expect(standIn().received('delete')[0]?.deletes).toEqual([
      expect.objectContaining({
        q: { _id: { $lt: new ObjectId(firstIdAt(olderThan)) } },
        limit: 0,
      }),
    ])
  })

  it('changes the TTL in place when the retention changed since the index was made', async () => {
    const state = await open()
    // An earlier start made the index with a retention of 30 days.
    const client = await new MongoClient(standIn().url).connect()
    try {
      const maillog = client.db('data').collection('maillog')
      const thirtyDays = 30 * 86_400
      await maillog.createIndex(
        { createdAt: 1 },
        { name: 'createdAt_ttl', expireAfterSeconds: thirtyDays },
      )
      await state.open('maillog')
      expect(pick(standIn().received('collMod')[0], 'collMod', 'index')).toEqual({
        collMod: 'maillog',
        index: { name: 'createdAt_ttl', expireAfterSeconds: 90 * 86_400 },
      })
      const ttl = (await maillog.indexes()).find((index) => index.name === 'createdAt_ttl')
      expect(ttl?.expireAfterSeconds).toBe(90 * 86_400)
    } finally {
      await client.close()
    }
  })
})
