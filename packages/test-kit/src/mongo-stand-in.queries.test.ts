import { type Collection, type Db, type Document, Long, MongoClient, ObjectId } from 'mongodb'
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
  db = client.db('queries')
})
afterAll(async () => {
  await client.close()
  await standIn.close()
})
beforeEach(async () => {
  movies = db.collection<Loose>(`movies_${++collections}`)
  await movies.insertMany([
    { _id: new ObjectId('ff0000000000000000000001'), name: 'Alien', year: 1979, tags: ['space'] },
    { _id: new ObjectId('0f0000000000000000000002'), name: 'Heat', year: 1995, tags: [] },
    { _id: new ObjectId('a00000000000000000000003'), name: 'Brazil', year: 1985 },
    { _id: new ObjectId('0a0000000000000000000004'), name: 'Ran', year: 1985, tags: ['war'] },
  ])
})

const names = (documents: Loose[]) => documents.map(({ name }) => name)

describe('MongoStandIn queries', () => {
  it('filters as MongoDB does: operators, arrays, $expr, missing fields', async () => {
    expect(names(await movies.find({ year: { $gte: 1985, $lt: 1990 } }).toArray())).toEqual([
      'Brazil',
      'Ran',
    ])
    expect(names(await movies.find({ tags: 'war' }).toArray())).toEqual(['Ran'])
    expect(names(await movies.find({ tags: { $exists: false } }).toArray())).toEqual(['Brazil'])
    expect(names(await movies.find({ $expr: { $gt: ['$year', 1990] } }).toArray())).toEqual([
      'Heat',
    ])
    expect(names(await movies.find({ name: /^B/ }).toArray())).toEqual(['Brazil'])
  })

  it('orders ObjectIds by their 12 bytes, in sorts and in $gt', async () => {
    expect(names(await movies.find().sort({ _id: 1 }).toArray())).toEqual([
      'Ran',
      'Heat',
      'Brazil',
      'Alien',
    ])
    const after = new ObjectId('0f0000000000000000000002')
    expect(
      names(
        await movies
          .find({ _id: { $gt: after } })
          .sort({ _id: -1 })
          .toArray(),
      ),
    ).toEqual(['Alien', 'Brazil'])
  })

  it('orders dates by time and Longs within 2^53 as the numbers they are', async () => {
    const values = db.collection<Loose>(`values_${collections}`)
    await values.insertMany([
      { at: new Date(2_000), n: Long.fromNumber(10) },
      { at: new Date(1_000), n: 9 },
      { at: new Date(3_000), n: Long.fromNumber(-1) },
    ])
    const byDate = await values
      .find({ at: { $gt: new Date(1_500) } })
      .sort({ at: 1 })
      .toArray()
    expect(byDate.map(({ n }) => Number(n))).toEqual([10, -1])
    expect((await values.find().sort({ n: 1 }).toArray()).map(({ n }) => Number(n))).toEqual([
      -1, 9, 10,
    ])
  })

  it('sorts on several fields, skips and limits, and keeps insertion order without a sort', async () => {
    const sorted = await movies.find().sort({ year: -1, name: 1 }).skip(1).limit(2).toArray()
    expect(names(sorted)).toEqual(['Brazil', 'Ran'])
    expect(names(await movies.find().toArray())).toEqual(['Alien', 'Heat', 'Brazil', 'Ran'])
  })

  it('projects fields, _id left out, and aggregation expressions over $$ROOT', async () => {
    const [brazil] = await movies
      .find({ name: 'Brazil' }, { projection: { _id: 0, fields: { $objectToArray: '$$ROOT' } } })
      .toArray()
    expect(brazil).toEqual({
      fields: [
        { k: '_id', v: new ObjectId('a00000000000000000000003') },
        { k: 'name', v: 'Brazil' },
        { k: 'year', v: 1985 },
      ],
    })
    const [alien] = await movies
      .find(
        {},
        { projection: { name: 1, decade: { $subtract: ['$year', { $mod: ['$year', 10] }] } } },
      )
      .toArray()
    expect(Object.entries(alien ?? {})).toEqual([
      ['_id', new ObjectId('ff0000000000000000000001')],
      ['name', 'Alien'],
      ['decade', 1970],
    ])
  })

  it('answers in batches, the rest through getMore, and one batch for a negative limit', async () => {
    const many = db.collection<Loose>(`many_${collections}`)
    await many.insertMany(Array.from({ length: 250 }, (_, n) => ({ n })))
    expect(await many.find({}, { batchSize: 100 }).toArray()).toHaveLength(250)
    const getMores = standIn
      .received('getMore')
      .filter((body) => body.collection === many.collectionName)
    expect(getMores).toHaveLength(2)
    const single = await db.command({ find: many.collectionName, limit: -5 })
    expect(single.cursor.firstBatch).toHaveLength(5)
    expect(single.cursor.id.toString()).toBe('0')
  })

  it('runs pipelines, counts as countDocuments and estimatedDocumentCount ask', async () => {
    const decades = await movies
      .aggregate([
        { $group: { _id: { $subtract: ['$year', { $mod: ['$year', 10] }] }, n: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ])
      .toArray()
    expect(decades).toEqual([
      { _id: 1970, n: 1 },
      { _id: 1980, n: 2 },
      { _id: 1990, n: 1 },
    ])
    expect(await movies.countDocuments({ year: 1985 })).toBe(2)
    expect(await movies.countDocuments({}, { skip: 1, limit: 2 })).toBe(2)
    expect(await movies.estimatedDocumentCount()).toBe(4)
  })

  it('answers nothing from a collection or database that does not exist', async () => {
    expect(await db.collection('nothing').find().toArray()).toEqual([])
    expect(await client.db('nowhere').collection('x').countDocuments()).toBe(0)
  })

  it('shares its data between clients, as between processes', async () => {
    const other = await new MongoClient(standIn.url).connect()
    try {
      await other
        .db('queries')
        .collection<Loose>(movies.collectionName)
        .insertOne({ name: 'Ikiru' })
      expect(await movies.countDocuments()).toBe(5)
    } finally {
      await other.close()
    }
  })
})

describe('MongoStandIn, strings in MongoDB’s order: by code point, as their UTF-8 bytes', () => {
  // By UTF-16 unit (JavaScript's `<`), U+1F600 (surrogates from U+D800) comes before U+FF21.
  const [z, fullWidthA, grinning] = ['z', '\uFF21', '\u{1F600}']
  let strings: Collection<Loose>
  beforeEach(async () => {
    strings = db.collection<Loose>(`strings_${collections}`)
    await strings.insertMany([{ s: fullWidthA }, { s: grinning }, { s: z }, { s: '\uFF5E' }])
  })
  const values = (found: Document[]) => found.map(({ s }) => s)

  it('sorts a find by code point, either way, and pages through it', async () => {
    expect(values(await strings.find().sort({ s: 1 }).toArray())).toEqual([
      z,
      fullWidthA,
      '\uFF5E',
      grinning,
    ])
    expect(values(await strings.find().sort({ s: -1 }).limit(2).toArray())).toEqual([
      grinning,
      '\uFF5E',
    ])
    const after = strings.find({ s: { $gt: '\uFF5E' } }).sort({ s: 1 })
    expect(values(await after.toArray())).toEqual([grinning])
  })

  it('compares by code point in $gt, $gte, $lt and $lte, and in an aggregation’s $sort', async () => {
    const found = async (filter: Document) => values(await strings.find(filter).toArray()).sort()
    expect(await found({ s: { $lt: grinning } })).toEqual([z, fullWidthA, '\uFF5E'].sort())
    expect(await found({ s: { $lte: fullWidthA } })).toEqual([z, fullWidthA].sort())
    expect(await found({ s: { $gte: '\uFF5E' } })).toEqual(['\uFF5E', grinning].sort())
    const sorted = await strings.aggregate([{ $sort: { s: -1 } }]).toArray()
    expect(values(sorted)).toEqual([grinning, '\uFF5E', fullWidthA, z])
  })

  it('orders any two strings as their UTF-8 bytes order', async () => {
    const pieces = ['a', 'é', '\uD7FF', '\uE000', '\uFF5E', '\uFFFF', '\u{10000}', '\u{1F600}']
    const texts = pieces.flatMap((one) => pieces.map((two) => one + two))
    await strings.insertMany(texts.map((s) => ({ s, text: true })))
    const sorted = values(await strings.find({ text: true }).sort({ s: 1 }).toArray())
    const byBytes = [...texts].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    expect(sorted).toEqual(byBytes)
  })
})

describe('MongoStandIn, where it follows mingo rather than MongoDB', () => {
  it('compares Longs beyond 2^53 by their text, where MongoDB compares the numbers', async () => {
    const big = db.collection<Loose>(`big_${collections}`)
    await big.insertMany([
      { n: Long.fromString('10000000000000000') },
      { n: Long.fromString('9007199254740993') },
    ])
    const sorted = await big.find().sort({ n: 1 }).toArray()
    expect(sorted.map(({ n }) => String(n))).toEqual(['10000000000000000', '9007199254740993'])
  })

  it('lists integer-like field names first, where MongoDB keeps the order they were written in', async () => {
    await movies.updateOne({ name: 'Heat' }, { $set: { 1994: 'appended' } })
    const heat = await movies.findOne({ name: 'Heat' })
    expect(Object.keys(heat ?? {})).toEqual(['1994', '_id', 'name', 'year', 'tags'])
  })
})
