import { randomBytes } from 'node:crypto'
import { useMongoServer } from '@movies-and-mail/test-kit'
import { MongoClient } from 'mongodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listBytes } from '../src/store/item-store.js'
import { describeItemStoreContract } from './item-store.contract.js'
import { StoreHarness } from './support/store-harness.js'

// The stores the Worker runs, run where the Worker runs them: inside workerd, reached through a
// harness Worker under Miniflare, one Durable Object (so one fresh store) per test.

describe('in workerd', () => {
  let harness: StoreHarness
  beforeAll(async () => {
    harness = await StoreHarness.start()
  })
  afterAll(() => harness?.dispose())

  // A Durable Object's storage exists only there.
  describeItemStoreContract('DurableItemStore (in workerd)', () => harness.open())

  // The Worker's store: every call crosses to the collection's object and back.
  describeItemStoreContract('ObjectItemStore over ItemsObject (in workerd)', () =>
    harness.open({}, { throughObject: true }),
  )

  it('DurableItemStore reads back more items than SQLite takes in one value, whole and in order', async () => {
    const store = await harness.open()
    // 1,500 items of 2 KB: 3 MB, where SQLite in an object refuses a value past 2 MB.
    const items = Array.from({ length: 1500 }, (_, n) => ({
      _id: (0x5f0000000000000000000000n + BigInt(n)).toString(16),
      id: `m${n}`,
      name: `Movie ${n} ${'·'.repeat(1000)}`,
      genre: 'Drama',
    }))
    // Restored last first: the list is read back from storage, in _id order.
    expect(await store.restore([...items].reverse(), { replace: false })).toMatchObject({
      added: 1500,
    })
    expect(JSON.parse(Buffer.from(await listBytes(await store.list())).toString())).toEqual(items)
    const found = await store.find('m1499')
    expect(JSON.parse(Buffer.from(found?.body ?? []).toString())).toEqual(items[1499])
  })
})

describe('in workerd, on MongoDB', () => {
  const server = useMongoServer('MongoDB-in-workerd contract suite')
  // One database per run, so that runs never see each other's data; dropped at the end.
  const dbName = `items_workerd_${Date.now()}_${randomBytes(3).toString('hex')}`
  let collections = 0
  let harness: StoreHarness
  beforeAll(async () => {
    // The driver is the Worker's own module (mongodb.js), as `npm run build:worker` makes it.
    harness = await StoreHarness.start({ mongodb: true })
  }, 60_000)
  afterAll(async () => {
    await harness?.dispose()
    const client = await new MongoClient(server.url()).connect()
    await client.db(dbName).dropDatabase()
    await client.close()
  })

  describeItemStoreContract('MongoItemStore (in workerd)', () =>
    harness.open({
      mongodb: {
        url: server.url(),
        dbName,
        collectionName: `movies_${++collections}`,
        timeoutMs: 5_000,
      },
    }),
  )
})
