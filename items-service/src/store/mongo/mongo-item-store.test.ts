import { randomBytes } from 'node:crypto'
import { useMongoServer } from '@movies-and-mail/test-kit'
import { MongoClient } from 'mongodb'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeItemStoreContract, parseJson } from '../../../test/item-store.contract.js'
import type { FeedEvent } from '../change-feed.js'
import { MongoItemStore } from './mongo-item-store.js'

// One database per run, so that runs never see each other's data; dropped at the end.
const dbName = `items_contract_${Date.now()}_${randomBytes(3).toString('hex')}`
let collections = 0

describe('MongoItemStore', () => {
  const server = useMongoServer('MongoItemStore contract suite')
  const url = server.url
  afterAll(async () => {
    const client = await new MongoClient(url()).connect()
    await client.db(dbName).dropDatabase()
    await client.close()
  })

  const open = (collectionName = `movies_${++collections}`) =>
    MongoItemStore.connect({ url: url(), dbName, collectionName, timeoutMs: 5_000 })

  describeItemStoreContract('MongoItemStore', () => open())

  describe('two instances on one collection', () => {
    const movie = { id: 'tt0078748', name: 'Alien', genre: 'Horror' }
    let one: MongoItemStore
    let other: MongoItemStore
    const tagOf = async (store: MongoItemStore) => (await store.find(movie.id))?.etag ?? ''

    beforeEach(async () => {
      const collectionName = `movies_${++collections}`
      one = await open(collectionName)
      other = await open(collectionName)
      await one.insert(movie)
    })
    afterEach(async () => {
      await Promise.all([one.close(), other.close()])
    })

    it("refuse If-Match with a tag the other instance's write made stale", async () => {
      const etag = await tagOf(one)
      expect((await other.update(movie.id, { genre: 'Sci-fi' })).ok).toBe(true)
      const stale = { ok: false, why: 'stale', id: movie.id }
      expect(await one.update(movie.id, { name: 'Aliens' }, [etag])).toEqual(stale)
      expect(await one.remove(movie.id, [etag])).toEqual(stale)
      expect(await parseJson(await one.find(movie.id))).toMatchObject({ genre: 'Sci-fi' })
    })

    it('let exactly one of many writes under the same If-Match through', async () => {
      const etag = await tagOf(one)
      const writes = Array.from({ length: 8 }, (_, n) =>
        (n % 2 ? one : other).update(movie.id, { year: 1979 + n }, [etag]),
      )
      const results = await Promise.all(writes)
      expect(results.filter((result) => result.ok)).toHaveLength(1)
      for (const result of results) if (!result.ok) expect(result.why).toBe('stale')
    })

    it('take an item as it is stored: a field named like a number added later, a "$" value', async () => {
      // MongoDB keeps `1994` last, where `$set` appended it; the test kit's MongoStandIn keeps it
      // first, as any JavaScript object does, in the read and the compare alike. Against the
      // stand-in this proves the "$" value only; against MongoDB, the stored order too.
      await one.update(movie.id, { 1994: 'a field appended after the others', name: '$5 a day' })
      const etag = await tagOf(other)
      expect((await other.update(movie.id, { genre: 'Sci-fi' }, [etag])).ok).toBe(true)
      const now = await tagOf(one)
      expect((await one.remove(movie.id, [now])).ok).toBe(true)
    })

    it("see each other's writes in their change feeds, under the same event ids", async (context) => {
      if (!other.changes) {
        context.skip('the server is a standalone: change streams need a replica set or mongos')
      }
      const follow = (store: MongoItemStore) => {
        const events: FeedEvent[] = []
        store.changes?.subscribe({ event: (event) => events.push(event), end: () => {} })
        return events
      }
      const [mine, theirs] = [follow(one), follow(other)]
      await one.update(movie.id, { genre: 'Sci-fi' })
      await one.insert({ ...movie, id: 'tt0090605', name: 'Aliens' })
      await one.remove('tt0090605')
      const deadline = Date.now() + 5_000
      while ((mine.length < 3 || theirs.length < 3) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(theirs.map((event) => event.kind)).toEqual(['updated', 'created', 'deleted'])
      const data = theirs.map((event) => JSON.parse(new TextDecoder().decode(event.data)))
      expect(data[0]).toMatchObject({ ...movie, genre: 'Sci-fi' })
      expect(data[1]).toMatchObject({ id: 'tt0090605' })
      expect(data[2]._id).toBe(data[1]._id)
      expect(mine.map((event) => event.id)).toEqual(theirs.map((event) => event.id))
    })
  })
})
