import { randomBytes } from 'node:crypto'
import { MongoClient } from 'mongodb'
import { afterAll, describe } from 'vitest'
import { describeItemStoreContract } from './item-store.contract.js'
import { MongoItemStore } from './mongo-item-store.js'

const url = process.env.TEST_MONGODB_URL
// One database per run, so that runs never see each other's data; dropped at the end.
const dbName = `items_contract_${Date.now()}_${randomBytes(3).toString('hex')}`
let collections = 0

if (!url) {
  console.log(
    'MongoDB contract suite skipped: set TEST_MONGODB_URL=mongodb://... to run it against a server',
  )
}

describe.skipIf(!url)('MongoItemStore', () => {
  afterAll(async () => {
    const client = await new MongoClient(url as string).connect()
    await client.db(dbName).dropDatabase()
    await client.close()
  })

  describeItemStoreContract('MongoItemStore', () =>
    MongoItemStore.connect({
      url: url as string,
      dbName,
      collectionName: `movies_${++collections}`,
      timeoutMs: 5_000,
    }),
  )
})
