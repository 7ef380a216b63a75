import {
  type Collection,
  type Db,
  type Document,
  Long,
  MongoBulkWriteError,
  MongoClient,
  ObjectId,
} from 'mongodb'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MongoStandIn } from './mongo-stand-in.js'

/** Documents of any shape, `_id` of any type, as the tests write them. */
type Loose = Document & { _id?: string | number | ObjectId }

let standIn: MongoStandIn
let client: MongoClient
let db: Db
let counts: Collection<Loose>
let collections = 0

beforeAll(async () => {
  standIn = await MongoStandIn.start({ setName: 'rs0' })
  client = await new MongoClient(standIn.url).connect()
  db = client.db('writes')
})
afterAll(async () => {
  await client.close()
  await standIn.close()
})
beforeEach(() => {
  counts = db.collection<Loose>(`counts_${++collections}`)
})

describe('MongoStandIn writes', () => {
  it('gives a document without _id an ObjectId, first of its fields', async () => {
    // Sent as it is: the driver's insertOne would give it an _id of its own first.
    await db.command({ insert: counts.collectionName, documents: [{ n: 1 }] })
    const stored = await counts.findOne()
    expect(stored?._id).toBeInstanceOf(ObjectId)
    expect(Object.keys(stored ?? {})).toEqual(['_id', 'n'])
  })

  it('updates with operators, arrayFilters, and answers matched and modified', async () => {
    await counts.insertMany([
      { _id: 'a', n: 1, marks: [1, 5, 9] },
      { _id: 'b', n: 2 },
    ])
    const result = await counts.updateOne(
      { _id: 'a' },
      { $inc: { n: 2 }, $set: { 'marks.$[big]': 0 } },
      { arrayFilters: [{ big: { $gt: 4 } }] },
    )
    expect([result.matchedCount, result.modifiedCount]).toEqual([1, 1])
    expect(await counts.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 3, marks: [1, 0, 0] })
    const same = await counts.updateMany({}, { $max: { n: 2 } })
    expect([same.matchedCount, same.modifiedCount]).toEqual([2, 0])
    expect((await counts.updateMany({ n: { $gt: 0 } }, { $unset: { n: '' } })).modifiedCount).toBe(
      2,
    )
  })

  it('replaces a document whole, keeping its _id', async () => {
    await counts.insertOne({ _id: 'a', n: 1, old: true })
    expect((await counts.replaceOne({ _id: 'a' }, { n: 2 })).modifiedCount).toBe(1)
    expect(await counts.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 2 })
  })

  it('updates with a pipeline, $$NOW the server clock', async () => {
    await counts.insertOne({ _id: 'a', n: 1 })
    const before = Date.now()
    await counts.updateOne({ _id: 'a' }, [
      { $set: { n: { $add: ['$n', 1] }, at: '$$NOW' } },
      { $set: { later: { $add: ['$at', 1_000] } } },
    ])
    const stored = await counts.findOne({ _id: 'a' })
    expect(stored?.n).toBe(2)
    expect(stored?.at?.getTime()).toBeGreaterThanOrEqual(before)
    expect(Number(stored?.later) - Number(stored?.at)).toBe(1_000)
  })

  it('upserts from the equalities of the filter, with $setOnInsert, replacement or pipeline', async () => {
    const upserted = await counts.updateOne(
      { _id: 'k', 'owner.name': 'ada', n: { $gt: 5 } },
      { $inc: { hits: 1 }, $setOnInsert: { created: true } },
      { upsert: true },
    )
    expect([upserted.upsertedId, upserted.matchedCount]).toEqual(['k', 0])
    expect(await counts.findOne({ _id: 'k' })).toEqual({
      _id: 'k',
      owner: { name: 'ada' },
      hits: 1,
      created: true,
    })
    await counts.updateOne({ _id: 'k' }, { $inc: { hits: 1 }, $setOnInsert: { created: false } })
    expect(await counts.findOne({ _id: 'k' })).toMatchObject({ hits: 2, created: true })
    await counts.replaceOne({ _id: 'r', ignored: 1 }, { n: 1 }, { upsert: true })
    await counts.updateOne({ _id: 'p' }, [{ $set: { n: { $ifNull: ['$n', 10] } } }], {
      upsert: true,
    })
    expect(await counts.find({ _id: { $in: ['r', 'p'] } }).toArray()).toEqual([
      { _id: 'r', n: 1 },
      { _id: 'p', n: 10 },
    ])
    const made = await counts.updateOne({ n: 99 }, { $set: { m: 1 } }, { upsert: true })
    expect(made.upsertedId).toBeInstanceOf(ObjectId)
  })

  it('refuses to change an _id', async () => {
    await counts.insertOne({ _id: 'a', n: 1 })
    await expect(counts.updateOne({ _id: 'a' }, { $set: { _id: 'b' } })).rejects.toMatchObject({
      code: 66,
    })
    await expect(counts.replaceOne({ _id: 'a' }, { _id: 'c' })).rejects.toMatchObject({ code: 66 })
  })

  it('deletes the first match or all of them', async () => {
    await counts.insertMany([{ n: 1 }, { n: 1 }, { n: 1 }, { n: 2 }])
    expect((await counts.deleteOne({ n: 1 })).deletedCount).toBe(1)
    expect((await counts.deleteMany({ n: 1 })).deletedCount).toBe(2)
    expect(await counts.countDocuments()).toBe(1)
  })

  it('finds and modifies: the first in sort order, before or after, projected, upserted, removed', async () => {
    await counts.insertMany([
      { _id: 'a', n: 1 },
      { _id: 'b', n: 2 },
    ])
    const last = await counts.findOneAndUpdate(
      {},
      { $inc: { n: 10 } },
      { sort: { n: -1 }, projection: { n: 1, _id: 0 } },
    )
    expect(last).toEqual({ n: 2 })
    const after = await counts.findOneAndUpdate(
      { _id: 'a' },
      [{ $set: { n: { $multiply: ['$n', 5] } } }],
      {
        returnDocument: 'after',
      },
    )
    expect(after).toEqual({ _id: 'a', n: 5 })
    const full = await counts.findOneAndUpdate(
      { _id: 'c' },
      { $set: { n: 3 } },
      { upsert: true, includeResultMetadata: true },
    )
    expect(full).toMatchObject({
      value: null,
      lastErrorObject: { n: 1, updatedExisting: false, upserted: 'c' },
    })
    expect(
      await counts.findOneAndReplace({ _id: 'c' }, { n: 4 }, { returnDocument: 'after' }),
    ).toEqual({ _id: 'c', n: 4 })
    expect(await counts.findOneAndDelete({ n: { $gte: 5 } }, { sort: { n: 1 } })).toEqual({
      _id: 'a',
      n: 5,
    })
    expect(await counts.findOneAndUpdate({ _id: 'none' }, { $set: { n: 1 } })).toBeNull()
    expect(await counts.find().toArray()).toEqual([
      { _id: 'b', n: 12 },
      { _id: 'c', n: 4 },
    ])
  })

  it('runs a bulk write as the driver sends it, ordered or not', async () => {
    await counts.insertOne({ _id: 'a', n: 1 })
    const result = await counts.bulkWrite([
      { deleteOne: { filter: { _id: 'a' } } },
      { insertOne: { document: { _id: 'a', n: 2 } } },
      { updateOne: { filter: { _id: 'a' }, update: { $inc: { n: 1 } } } },
    ])
    expect([result.deletedCount, result.insertedCount, result.modifiedCount]).toEqual([1, 1, 1])
    expect(await counts.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 3 })
    const unordered = await counts
      .insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'a' }, { _id: 'c' }], { ordered: false })
      .catch((error: MongoBulkWriteError) => error)
    expect(unordered).toBeInstanceOf(MongoBulkWriteError)
    expect((unordered as MongoBulkWriteError).insertedCount).toBe(2)
    const ordered = await counts
      .insertMany([{ _id: 'd' }, { _id: 'a' }, { _id: 'e' }])
      .catch((error: MongoBulkWriteError) => error)
    expect((ordered as MongoBulkWriteError).insertedCount).toBe(1)
    expect((await counts.find().toArray()).map(({ _id }) => _id)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('answers a retried write (same session, same txnNumber) as the first time, without writing twice', async () => {
    const session = client.startSession()
    try {
      const insert = {
        insert: counts.collectionName,
        documents: [{ _id: 'once' }],
        txnNumber: Long.fromNumber(1_000_000),
      }
      const first = await db.command(insert, { session })
      expect(await db.command(insert, { session })).toEqual(first)
      expect(first.writeErrors).toBeUndefined()
      const next = await db.command(
        { ...insert, txnNumber: Long.fromNumber(1_000_001) },
        { session },
      )
      expect(next.writeErrors?.[0]?.code).toBe(11000)
    } finally {
      await session.endSession()
    }
  })
})
