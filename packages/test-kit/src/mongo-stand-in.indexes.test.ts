import {
  type Collection,
  type Db,
  type Document,
  MongoClient,
  MongoServerError,
  ObjectId,
} from 'mongodb'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MongoStandIn } from './mongo-stand-in.js'

/** Documents of any shape, `_id` of any type, as the tests write them. */
type Loose = Document & { _id?: string | number | ObjectId }

let standIn: MongoStandIn
let client: MongoClient
let db: Db
let movies: Collection<Loose>
let collections = 0

beforeAll(async () => {
  standIn = await MongoStandIn.start()
  client = await new MongoClient(standIn.url).connect()
  db = client.db('indexes')
})
afterAll(async () => {
  await client.close()
  await standIn.close()
})
beforeEach(async () => {
  movies = db.collection<Loose>(`movies_${++collections}`)
  await movies.createIndexes([{ key: { id: 1 }, name: 'id_unique', unique: true }])
})

/** What a refused write threw, as a caller of the driver sees it. */
const refusal = (write: Promise<unknown>) =>
  write.then(
    () => undefined,
    (error: unknown) => error,
  )

const duplicate = (namespace: string, key: string, value: string) => ({
  code: 11000,
  errmsg: `E11000 duplicate key error collection: ${namespace} index: ${key === 'id' ? 'id_unique' : '_id_'} dup key: { ${key}: "${value}" }`,
  keyPattern: { [key]: 1 },
  keyValue: { [key]: value },
})

describe('MongoStandIn unique indexes', () => {
  it('refuse an insert of a taken id with E11000, its keyPattern and keyValue', async () => {
    await movies.insertOne({ id: 'a' })
    const error = await refusal(movies.insertOne({ id: 'a' }))
    expect(error).toBeInstanceOf(MongoServerError)
    expect(error).toMatchObject(duplicate(movies.namespace, 'id', 'a'))
    expect(
      await refusal(movies.insertOne({ _id: 'x' }).then(() => movies.insertOne({ _id: 'x' }))),
    ).toMatchObject(duplicate(movies.namespace, '_id', 'x'))
  })

  it('refuse an update or an upsert that would take a taken id', async () => {
    await movies.insertMany([{ id: 'a' }, { id: 'b' }])
    expect(await refusal(movies.updateOne({ id: 'b' }, { $set: { id: 'a' } }))).toMatchObject(
      duplicate(movies.namespace, 'id', 'a'),
    )
    expect(
      await refusal(movies.updateOne({ id: 'c' }, { $set: { id: 'a' } }, { upsert: true })),
    ).toMatchObject(duplicate(movies.namespace, 'id', 'a'))
    expect(
      await refusal(movies.findOneAndUpdate({ id: 'b' }, [{ $set: { id: 'a' } }])),
    ).toMatchObject(duplicate(movies.namespace, 'id', 'a'))
    expect((await movies.find().toArray()).map(({ id }) => id)).toEqual(['a', 'b'])
  })

  it('write an ObjectId key as MongoDB does in the message', async () => {
    const _id = new ObjectId()
    await movies.insertOne({ _id, id: 'a' })
    const error = await refusal(movies.insertOne({ _id, id: 'b' }))
    expect((error as MongoServerError).errmsg).toMatch(
      `dup key: { _id: ObjectId('${_id.toHexString()}') }`,
    )
  })

  it('refuse a unique index over documents that repeat its key, and make none of the batch', async () => {
    await movies.insertMany([
      { id: 'a', name: 'Alien' },
      { id: 'b', name: 'Alien' },
    ])
    const error = await refusal(
      movies.createIndexes([
        { key: { year: 1 }, name: 'year' },
        { key: { name: 1 }, name: 'name_unique', unique: true },
      ]),
    )
    expect(error).toMatchObject({ code: 11000, keyValue: { name: 'Alien' } })
    expect((await movies.indexes()).map(({ name }) => name)).toEqual(['_id_', 'id_unique'])
  })

  it('keep one document without the field, as a null key, unless sparse', async () => {
    await movies.insertOne({ name: 'no id' })
    expect(await refusal(movies.insertOne({ name: 'no id either' }))).toMatchObject({
      code: 11000,
      keyValue: { id: null },
    })
    await movies.createIndex({ code: 1 }, { name: 'code_sparse', unique: true, sparse: true })
    await movies.insertMany([{ id: 'b' }, { id: 'c', code: 1 }])
    expect(await refusal(movies.insertOne({ id: 'd', code: 1 }))).toMatchObject({
      keyPattern: { code: 1 },
      keyValue: { code: 1 },
    })
  })
})

describe('MongoStandIn createIndexes and collMod', () => {
  it('accept the same index again, and refuse it with other options (85) or keys (86)', async () => {
    const ttl = { key: { at: 1 }, name: 'at_ttl', expireAfterSeconds: 60 }
    expect(await movies.createIndexes([ttl])).toEqual(['at_ttl'])
    expect(await movies.createIndexes([ttl])).toEqual(['at_ttl'])
    expect(await refusal(movies.createIndexes([{ ...ttl, expireAfterSeconds: 30 }]))).toMatchObject(
      {
        code: 85,
        codeName: 'IndexOptionsConflict',
      },
    )
    expect(await refusal(movies.createIndexes([{ key: { at: 1 }, name: 'other' }]))).toMatchObject({
      code: 85,
    })
    expect(await refusal(movies.createIndexes([{ ...ttl, key: { other: 1 } }]))).toMatchObject({
      code: 86,
    })
  })

  it("change a TTL index's expireAfterSeconds in place", async () => {
    await movies.createIndexes([{ key: { at: 1 }, name: 'at_ttl', expireAfterSeconds: 60 }])
    const answer = await db.command({
      collMod: movies.collectionName,
      index: { name: 'at_ttl', expireAfterSeconds: 30 },
    })
    expect(answer).toMatchObject({ expireAfterSeconds_old: 60, expireAfterSeconds_new: 30 })
    const ttl = (await movies.indexes()).find(({ name }) => name === 'at_ttl')
    expect(ttl?.expireAfterSeconds).toBe(30)
    expect(
      await refusal(db.command({ collMod: movies.collectionName, index: { name: 'none' } })),
    ).toMatchObject({
      code: 27,
    })
  })
})

describe('MongoStandIn TTL indexes', () => {
  it('remove the documents past their expiry at each pass of the monitor, and only those', async () => {
    await movies.createIndexes([{ key: { at: 1 }, name: 'at_ttl', expireAfterSeconds: 60 }])
    const now = Date.now()
    await movies.insertMany([
      { id: 'old', at: new Date(now - 61_000) },
      { id: 'young', at: new Date(now - 10_000) },
      { id: 'no date', at: 'yesterday' },
      { id: 'one old date', at: [new Date(now), new Date(now - 120_000)] },
    ])
    expect(standIn.expireNow()).toBe(2)
    expect((await movies.find().toArray()).map(({ id }) => id)).toEqual(['young', 'no date'])
  })

  it('run the monitor every ttlMonitorMs', async () => {
    const quick = await MongoStandIn.start({ ttlMonitorMs: 50 })
    const other = await new MongoClient(quick.url).connect()
    try {
      const keys = other.db('ttl').collection<Loose>('keys')
      await keys.createIndexes([
        { key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 },
      ])
      await keys.insertMany([
        { expiresAt: new Date(Date.now() + 100) },
        { expiresAt: new Date(Date.now() + 60_000) },
      ])
      expect(await keys.countDocuments()).toBe(2)
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(await keys.countDocuments()).toBe(1)
    } finally {
      await other.close()
      await quick.close()
    }
  })
})
