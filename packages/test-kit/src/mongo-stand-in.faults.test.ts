import { type Collection, type Document, MongoClient, type ObjectId } from 'mongodb'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MongoStandIn } from './mongo-stand-in.js'

/** Documents of any shape, `_id` of any type, as the tests write them. */
type Loose = Document & { _id?: string | number | ObjectId }

let standIn: MongoStandIn
let client: MongoClient
let movies: Collection<Loose>

/** A client whose operations give up soon: the stand-in's faults make them wait for nothing. */
beforeEach(async () => {
  standIn = await MongoStandIn.start({ setName: 'rs0' })
  client = await new MongoClient(standIn.url, {
    serverSelectionTimeoutMS: 300,
    socketTimeoutMS: 300,
    retryReads: false,
    retryWrites: false,
  }).connect()
  movies = client.db('faults').collection<Loose>('movies')
  await movies.insertOne({ _id: 'a' })
})
afterEach(async () => {
  standIn.answer()
  await client.close()
  await standIn.close()
})

/** How the operation settled: its error, or undefined. */
const settled = (operation: Promise<unknown>) =>
  operation.then(
    () => undefined,
    (error: unknown) => error,
  )

describe('MongoStandIn faults', () => {
  it('stalls commands, never running them', async () => {
    standIn.stall()
    expect(await settled(movies.insertOne({ _id: 'b' }))).toBeInstanceOf(Error)
    standIn.answer()
    expect(await movies.find().toArray()).toEqual([{ _id: 'a' }])
    expect(standIn.commandNames()).toContain('insert')
  })

  it('answers heartbeats while it stalls commands, and nothing while it stalls all', async () => {
    const connect = () =>
      settled(
        new MongoClient(standIn.url, { serverSelectionTimeoutMS: 300 })
          .connect()
          .then((one) => one.close()),
      )
    standIn.stall()
    expect(await connect()).toBeUndefined()
    standIn.stall('all')
    expect(await connect()).toBeInstanceOf(Error)
    expect(await settled(movies.findOne())).toBeInstanceOf(Error)
  })

  it("stalls from the first command of a name on: a list's second batch", async () => {
    await movies.insertMany(Array.from({ length: 5 }, (_, n) => ({ n })))
    standIn.stallAt('getMore')
    expect(await settled(movies.find({}, { batchSize: 2 }).toArray())).toBeInstanceOf(Error)
    expect(standIn.received('getMore')).toHaveLength(1)
  })

  it('drops connections until it answers again', async () => {
    standIn.dropConnections()
    expect(await settled(movies.findOne())).toBeInstanceOf(Error)
    standIn.answer()
    // The driver finds the server again at its next heartbeat.
    const deadline = Date.now() + 5_000
    while ((await settled(movies.findOne())) && Date.now() < deadline) {}
    expect(await movies.findOne()).toEqual({ _id: 'a' })
  })

  it('answers what a test scripted for the next command of a name, without running it', async () => {
    standIn.replyNext('insert', { ok: 1, n: 1 })
    standIn.replyNext('find', { ok: 0, code: 2, codeName: 'BadValue', errmsg: 'scripted' })
    expect(await movies.insertOne({ _id: 'b' })).toMatchObject({ insertedId: 'b' })
    expect(await settled(movies.findOne({ _id: 'b' }))).toMatchObject({ code: 2 })
    expect(await movies.findOne({ _id: 'b' })).toBeNull()
    expect(await movies.insertOne({ _id: 'b' })).toMatchObject({ insertedId: 'b' })
    expect(standIn.received('insert').map((body) => body.documents)).toEqual([
      [{ _id: 'a' }],
      [{ _id: 'b' }],
      [{ _id: 'b' }],
    ])
  })
})
