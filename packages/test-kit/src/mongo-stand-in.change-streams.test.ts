import {
  type ChangeStream,
  type ChangeStreamDocument,
  type ChangeStreamOptions,
  type Collection,
  type Db,
  type Document,
  MongoClient,
  MongoServerError,
  type ObjectId,
  Timestamp,
} from 'mongodb'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MongoStandIn } from './mongo-stand-in.js'

/** Documents of any shape, `_id` of any type, as the tests write them. */
type Loose = Document & { _id?: string | number | ObjectId }

let standIn: MongoStandIn
let client: MongoClient
let db: Db
let movies: Collection<Loose>
let collections = 0
const streams: ChangeStream[] = []

beforeAll(async () => {
  standIn = await MongoStandIn.start({ setName: 'rs0' })
  client = await new MongoClient(standIn.url).connect()
  db = client.db('changes')
})
afterAll(async () => {
  await client.close()
  await standIn.close()
})
beforeEach(() => {
  movies = db.collection<Loose>(`movies_${++collections}`)
})
afterEach(async () => {
  await Promise.all(streams.splice(0).map((stream) => stream.close()))
})

/** A stream on `collection`, opened on the server before it is answered. */
async function watch(options: ChangeStreamOptions = {}, collection: Collection<Loose> = movies) {
  const stream = collection.watch([], { maxAwaitTimeMS: 50, ...options })
  streams.push(stream)
  await stream.tryNext()
  return stream
}

/** The next `count` events of `stream`, waiting for each. */
async function take(stream: ChangeStream, count: number): Promise<ChangeStreamDocument[]> {
  const events: ChangeStreamDocument[] = []
  const deadline = Date.now() + 3_000
  while (events.length < count && Date.now() < deadline) {
    const event = await stream.tryNext()
    if (event) events.push(event)
  }
  return events
}

const tokenOf = (event: ChangeStreamDocument | undefined) => (event?._id as Document)?._data

describe('MongoStandIn change streams', () => {
  it('are refused on a standalone server, as MongoDB refuses them', async () => {
    const standalone = await MongoStandIn.start()
    const other = await new MongoClient(standalone.url).connect()
    try {
      const stream = other.db('x').collection('y').watch()
      await expect(stream.tryNext()).rejects.toMatchObject({ code: 40573 })
      await stream.close()
    } finally {
      await other.close()
      await standalone.close()
    }
  })

  it('tell inserts, updates, replaces and deletes, in order, with tokens that sort so', async () => {
    const stream = await watch({ fullDocument: 'updateLookup' })
    await movies.insertOne({ _id: 'a', name: 'Alien', year: 1979 })
    await movies.updateOne({ _id: 'a' }, { $set: { name: 'Aliens' }, $unset: { year: '' } })
    await movies.replaceOne({ _id: 'a' }, { name: 'Alien³' })
    await movies.updateOne({ _id: 'a' }, { $set: { name: 'Alien³' } })
    await movies.deleteOne({ _id: 'a' })
    const events = await take(stream, 4)
    expect(events.map((event) => event.operationType)).toEqual([
      'insert',
      'update',
      'replace',
      'delete',
    ])
    const ns = { db: 'changes', coll: movies.collectionName }
    expect(events[0]).toMatchObject({
      ns,
      documentKey: { _id: 'a' },
      fullDocument: { _id: 'a', name: 'Alien', year: 1979 },
    })
    expect(events[1]).toMatchObject({
      updateDescription: { updatedFields: { name: 'Aliens' }, removedFields: ['year'] },
      // Looked up when the event is read: the document is gone by then.
      fullDocument: null,
    })
    expect(events[2]).toMatchObject({ fullDocument: { _id: 'a', name: 'Alien³' } })
    expect(events[3]).toMatchObject({ ns, documentKey: { _id: 'a' } })
    expect(events[3]).not.toHaveProperty('fullDocumentBeforeChange')
    for (const event of events) {
      expect(event).toMatchObject({
        clusterTime: expect.any(Timestamp),
        wallTime: expect.any(Date),
      })
      expect(tokenOf(event)).toMatch(/^[0-9A-F]+$/)
    }
    const tokens = events.map(tokenOf)
    expect([...tokens].sort()).toEqual(tokens)
    expect(stream.resumeToken).toEqual(events[3]?._id)
  })

  it('look an updated document up as it is when the event is read', async () => {
    const stream = await watch({ fullDocument: 'updateLookup' })
    await movies.insertOne({ _id: 'a', n: 1 })
    await movies.updateOne({ _id: 'a' }, { $inc: { n: 1 } })
    await movies.updateOne({ _id: 'a' }, { $inc: { n: 1 } })
    const [, first, second] = await take(stream, 3)
    expect(
      [first, second].map((event) => event?.operationType === 'update' && event.fullDocument),
    ).toEqual([
      { _id: 'a', n: 3 },
      { _id: 'a', n: 3 },
    ])
  })

  it('carry the document before where the collection keeps pre-images, null elsewhere', async () => {
    const kept = await db.createCollection<Loose>(`kept_${collections}`, {
      changeStreamPreAndPostImages: { enabled: true },
    })
    const options = { fullDocumentBeforeChange: 'whenAvailable' } as const
    const [keeping, plain] = [await watch(options, kept), await watch(options)]
    for (const collection of [kept, movies]) {
      await collection.insertOne({ _id: 'a', n: 1 })
      await collection.updateOne({ _id: 'a' }, { $set: { n: 2 } })
      await collection.deleteOne({ _id: 'a' })
    }
    const preImages = (events: ChangeStreamDocument[]) =>
      events.map((event) =>
        'fullDocumentBeforeChange' in event ? event.fullDocumentBeforeChange : 'none',
      )
    expect(preImages(await take(keeping, 3))).toEqual([
      'none',
      { _id: 'a', n: 1 },
      { _id: 'a', n: 2 },
    ])
    expect(preImages(await take(plain, 3))).toEqual(['none', null, null])
  })

  it('end with drop and invalidate when the collection is dropped; a stream starts after that', async () => {
    const stream = await watch()
    await movies.insertOne({ _id: 'a' })
    await movies.drop()
    const events = await take(stream, 3)
    expect(events.map((event) => event.operationType)).toEqual(['insert', 'drop', 'invalidate'])
    expect(stream.closed).toBe(true)
    const invalidate = events[2]?._id
    const resumed = movies.watch([], { resumeAfter: invalidate })
    streams.push(resumed)
    await expect(resumed.tryNext()).rejects.toMatchObject({ code: 260 })
    const after = await watch({ startAfter: invalidate })
    await movies.insertOne({ _id: 'b' })
    expect(
      (await take(after, 1)).map((event) => event.operationType === 'insert' && event.documentKey),
    ).toEqual([{ _id: 'b' }])
  })

  it('resume after a token with every change since', async () => {
    const stream = await watch()
    await movies.insertMany([{ _id: 1 }, { _id: 2 }])
    const [first] = await take(stream, 1)
    await stream.close()
    await movies.insertOne({ _id: 3 })
    const resumed = movies.watch([], { resumeAfter: first?._id, maxAwaitTimeMS: 50 })
    streams.push(resumed)
    const keys = (await take(resumed, 2)).map(
      (event) => event.operationType === 'insert' && event.documentKey._id,
    )
    expect(keys).toEqual([2, 3])
  })

  it('refuse to resume from before the history it keeps, with ChangeStreamHistoryLost', async () => {
    const short = await MongoStandIn.start({ setName: 'rs0', changeHistory: 2 })
    const other = await new MongoClient(short.url).connect()
    try {
      const keys = other.db('x').collection<Loose>('keys')
      const stream = keys.watch([], { maxAwaitTimeMS: 50 })
      await stream.tryNext()
      await keys.insertOne({ _id: 1 })
      await stream.tryNext()
      const token = stream.resumeToken
      await stream.close()
      // Kept: the last two changes; the one right after the token is forgotten.
      await keys.insertMany([{ _id: 2 }, { _id: 3 }, { _id: 4 }])
      const kept = keys.watch([], { resumeAfter: token })
      const error = await kept.tryNext().catch((error: unknown) => error)
      expect(error).toBeInstanceOf(MongoServerError)
      expect(error).toMatchObject({ code: 286, codeName: 'ChangeStreamHistoryLost' })
      await kept.close()
    } finally {
      await other.close()
      await short.close()
    }
  })

  it('serve several streams at once, each its own cursor, with one token per change', async () => {
    const [one, two] = [await watch(), await watch()]
    await movies.insertOne({ _id: 'a' })
    const [[mine], [theirs]] = [await take(one, 1), await take(two, 1)]
    expect(tokenOf(mine)).toBe(tokenOf(theirs))
    const cursors = standIn.received('getMore').map((body) => String(body.getMore))
    expect(new Set(cursors).size).toBeGreaterThanOrEqual(2)
  })

  it('hold a getMore until a change comes, or until maxAwaitTimeMS', async () => {
    const stream = await watch({ maxAwaitTimeMS: 300 })
    let started = performance.now()
    expect(await stream.tryNext()).toBeNull()
    expect(performance.now() - started).toBeGreaterThanOrEqual(250)
    started = performance.now()
    setTimeout(() => void movies.insertOne({ _id: 'a' }), 50)
    expect(await stream.tryNext()).toMatchObject({ operationType: 'insert' })
    expect(performance.now() - started).toBeLessThan(250)
  })

  it('tell the TTL monitor’s removals as deletes', async () => {
    await movies.createIndex({ at: 1 }, { name: 'at_ttl', expireAfterSeconds: 0 })
    await movies.insertOne({ _id: 'old', at: new Date(0) })
    const stream = await watch()
    expect(standIn.expireNow()).toBe(1)
    expect((await take(stream, 1)).map((event) => event.operationType)).toEqual(['delete'])
  })
})
