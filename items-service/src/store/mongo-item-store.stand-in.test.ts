import { Long, ObjectId } from 'mongodb'
import { afterEach, describe, expect, it } from 'vitest'
import { MongoStandIn, type StandInOptions } from '../../test/support/mongo-stand-in.js'
import type { FeedEvent } from './change-feed.js'
import { PreconditionFailedError, StoreUnavailableError } from './item-store.js'
import { MongoItemStore } from './mongo-item-store.js'

const timeoutMs = 500
const decoder = new TextDecoder()
const movie = { id: 'tt0078748', name: 'Alien', genre: 'Horror' }
const hex = '6740a1f2c3d4e5f6a7b8c9d0'
const _id = new ObjectId(hex)

let standIn: MongoStandIn
let store: MongoItemStore

async function open(options: StandInOptions = {}): Promise<void> {
  standIn = await MongoStandIn.start(options)
  store = await MongoItemStore.connect({ url: standIn.url, timeoutMs })
}

afterEach(async () => {
  await store?.close()
  await standIn?.close()
})

/** The events of the store's feed, as they come. */
function follow(): FeedEvent[] {
  const events: FeedEvent[] = []
  store.changes?.subscribe({ event: (event) => events.push(event), end: () => {} })
  return events
}

async function until(check: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Only the named fields of what was sent: the driver adds its own (`lsid`, `$db`, ...). */
const pick = (sent: Record<string, unknown> | undefined, ...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, sent?.[name]]))

const json = (event: FeedEvent | undefined) => event && JSON.parse(decoder.decode(event.data))

describe('MongoItemStore, as the server sees it', () => {
  describe('query', () => {
    it('sends filter, sort and one more than the limit, and answers the page', async () => {
      await open()
      for (const n of [1, 2, 3]) await store.insert({ ...movie, id: `tt${n}` })
      const page = await store.query({
        filters: [['genre', 'Horror']],
        sort: { field: 'name', descending: false },
        limit: 2,
        after: { _id: hex, value: 'Aliens' },
      })
      const [find] = standIn.received('find')
      expect(pick(find, 'find', 'filter', 'sort', 'limit')).toEqual({
        find: 'movies',
        filter: {
          $and: [
            { genre: { $in: ['Horror'], $not: { $type: 'array' } } },
            { $or: [{ name: { $gt: 'Aliens' } }, { name: 'Aliens', _id: { $gt: _id } }] },
          ],
        },
        sort: { name: 1, _id: 1 },
        limit: 3,
      })
      const items = JSON.parse(decoder.decode(page.body))
      expect(items.map((item: { id: string }) => item.id)).toEqual(['tt1', 'tt2'])
      expect(page.next).toEqual({ _id: items[1]._id, value: 'Alien' })
    })

    it('answers no next position when the page holds the last item', async () => {
      await open()
      await store.insert(movie)
      const page = await store.query({ filters: [], limit: 1 })
      expect(pick(standIn.received('find')[0], 'filter', 'sort', 'limit')).toEqual({
        filter: {},
        sort: { _id: 1 },
        limit: 2,
      })
      expect(page.next).toBeUndefined()
    })

    it('creates the indexes that serve sorted pages, next to id_unique', async () => {
      await open()
      const [{ indexes }] = standIn.received('createIndexes') as [{ indexes: unknown[] }]
      expect(indexes).toEqual([
        { key: { id: 1 }, name: 'id_unique', unique: true },
        { key: { name: 1, _id: 1 }, name: 'name_then_id' },
        { key: { name: -1, _id: 1 }, name: 'name_desc_then_id' },
        { key: { genre: 1, _id: 1 }, name: 'genre_then_id' },
        { key: { genre: -1, _id: 1 }, name: 'genre_desc_then_id' },
      ])
    })
  })

  it('gives up on a query or a conditional write within the timeout when the server stalls', async () => {
    await open()
    standIn.stall()
    for (const operation of [
      () => store.query({ filters: [['genre', 'Horror']], limit: 5 }),
      () => store.update(movie.id, { genre: 'Sci-fi' }, () => true),
      () => store.remove(movie.id, () => true),
    ]) {
      const started = performance.now()
      await expect(operation()).rejects.toThrow(StoreUnavailableError)
      expect(performance.now() - started).toBeLessThan(2_000)
    }
  })

  describe('If-Match', () => {
    const stored = { _id, ...movie }
    /** The stand-in answers the read of the item as MongoDB would: its fields in stored order. */
    const answerRead = () =>
      standIn.replyNext('find', {
        ok: 1,
        cursor: {
          id: Long.ZERO,
          ns: 'data.movies',
          firstBatch: [{ fields: Object.entries(stored).map(([k, v]) => ({ k, v })) }],
        },
      })
    const tagOf = async () => (await store.findTagged(movie.id))?.etag ?? ''

    it('filters the write on the whole item as read, field by field in stored order', async () => {
      await open()
      await store.insert(stored)
      const etag = await tagOf()
      answerRead()
      standIn.replyNext('update', { ok: 1, n: 1, nModified: 1 })
      expect(await store.update(movie.id, { genre: 'Sci-fi' }, (tag) => tag === etag)).toBe(true)
      const read = standIn.received('find').at(-1)
      expect(read).toMatchObject({
        filter: { id: movie.id },
        projection: { _id: 0, fields: { $objectToArray: '$$ROOT' } },
        limit: 1,
      })
      const [update] = standIn.received('update') as [{ updates: unknown[] }]
      expect(update.updates).toEqual([
        {
          q: {
            _id,
            $expr: {
              $eq: [
                { $objectToArray: '$$ROOT' },
                { $literal: Object.entries(stored).map(([k, v]) => ({ k, v })) },
              ],
            },
          },
          u: { $set: { genre: 'Sci-fi' } },
        },
      ])
    })

    it('refuses a stale tag without writing', async () => {
      await open()
      answerRead()
      await expect(store.remove(movie.id, () => false)).rejects.toThrow(PreconditionFailedError)
      expect(standIn.commandNames()).not.toContain('delete')
    })

    it('throws PreconditionFailedError when the item changed between read and write', async () => {
      await open()
      answerRead()
      // The stand-in's delete matches nothing; its find then answers the item, still there.
      await store.insert(stored)
      await expect(store.remove(movie.id, () => true)).rejects.toThrow(PreconditionFailedError)
      expect(standIn.received('delete')[0]).toMatchObject({
        deletes: [{ q: { _id, $expr: expect.any(Object) }, limit: 1 }],
      })
      expect(standIn.received('find').at(-1)).toMatchObject({
        filter: { _id },
        projection: { _id: 1 },
      })
    })

    it('answers false when the item was removed between read and write', async () => {
      await open()
      answerRead()
      expect(await store.update(movie.id, { genre: 'Sci-fi' }, () => true)).toBe(false)
    })
  })

  describe('changes', () => {
    it('are absent on a standalone server', async () => {
      await open()
      expect(store.changes).toBeUndefined()
      expect(standIn.received('aggregate')).toEqual([])
    })

    it('open one change stream on a replica set member, with the item before a delete', async () => {
      await open({ setName: 'rs0' })
      expect(store.changes).toBeDefined()
      const [aggregate] = standIn.received('aggregate')
      expect(pick(aggregate, 'aggregate', 'pipeline', 'cursor')).toEqual({
        aggregate: 'movies',
        pipeline: [
          {
            $changeStream: {
              fullDocument: 'updateLookup',
              fullDocumentBeforeChange: 'whenAvailable',
            },
          },
        ],
        cursor: {},
      })
      // Each wait for changes ends well before the socket timeout (`timeoutMs`) would cut it.
      await until(() => standIn.received('getMore').length > 0)
      expect(standIn.received('getMore')[0]).toMatchObject({ maxTimeMS: timeoutMs / 2 })
    })

    it('leave pre-images out on a server older than 6.0, which refuses the option', async () => {
      await open({ setName: 'rs0', maxWireVersion: 13 })
      expect(standIn.received('aggregate')[0]?.pipeline).toEqual([
        { $changeStream: { fullDocument: 'updateLookup' } },
      ])
    })

    it('publish each change with its resume token as the event id', async () => {
      await open({ setName: 'rs0' })
      const events = follow()
      const documentKey = { _id }
      standIn.pushChange({
        _id: { _data: '8201' },
        operationType: 'insert',
        fullDocument: { _id, ...movie },
        documentKey,
      })
      standIn.pushChange({
        _id: { _data: '8202' },
        operationType: 'update',
        fullDocument: { _id, ...movie, genre: 'Sci-fi' },
        documentKey,
      })
      standIn.pushChange({ _id: { _data: '8203' }, operationType: 'delete', documentKey })
      await until(() => events.length === 3)
      expect(events.map(({ id, kind }) => [id, kind])).toEqual([
        ['8201', 'created'],
        ['8202', 'updated'],
        ['8203', 'deleted'],
      ])
      expect(json(events[0])).toEqual({ _id: hex, ...movie })
      expect(json(events[1])).toEqual({ _id: hex, ...movie, genre: 'Sci-fi' })
      expect(json(events[2])).toEqual({ _id: hex })
      expect(store.changes?.lastId).toBe('8203')
    })

    it('reopen after an error the driver gives up on, from the last resume token', async () => {
      await open({ setName: 'rs0' })
      const events = follow()
      standIn.pushChange({
        _id: { _data: '8201' },
        operationType: 'insert',
        fullDocument: { _id, ...movie },
        documentKey: { _id },
      })
      await until(() => events.length === 1)
      standIn.replyNext('getMore', { ok: 0, code: 8, codeName: 'UnknownError', errmsg: 'boom' })
      await until(() => standIn.received('aggregate').length === 2)
      expect(standIn.received('aggregate')[1]?.pipeline[0].$changeStream).toMatchObject({
        resumeAfter: { _data: '8201' },
      })
    })

    it('start anew and tell followers to reload when the history is lost', async () => {
      await open({ setName: 'rs0' })
      const events = follow()
      standIn.replyNext('aggregate', {
        ok: 0,
        code: 286,
        codeName: 'ChangeStreamHistoryLost',
        errmsg: 'resume point no longer in the oplog',
      })
      standIn.replyNext('getMore', { ok: 0, code: 8, codeName: 'UnknownError', errmsg: 'boom' })
      await until(() => events.length === 1)
      expect(events[0]?.kind).toBe('reload')
      const [, resumed, fresh] = standIn.received('aggregate')
      expect(resumed?.pipeline[0].$changeStream).toHaveProperty('resumeAfter')
      expect(fresh?.pipeline[0].$changeStream).not.toHaveProperty('resumeAfter')
    })

    it('start after an invalidate, and tell followers to reload', async () => {
      await open({ setName: 'rs0' })
      const events = follow()
      standIn.pushChange({ _id: { _data: '8210' }, operationType: 'drop' })
      standIn.pushChange({ _id: { _data: '8211' }, operationType: 'invalidate' })
      await until(() => events.length === 1)
      expect(events[0]?.kind).toBe('reload')
      expect(standIn.received('aggregate')[1]?.pipeline[0].$changeStream).toMatchObject({
        startAfter: { _data: '8211' },
      })
    })

    it('end when the store closes, within the timeout even on a server that stopped answering', async () => {
      await open({ setName: 'rs0' })
      let ended = false
      store.changes?.subscribe({ event: () => {}, end: () => (ended = true) })
      standIn.stall('all')
      const started = performance.now()
      await store.close()
      expect(performance.now() - started).toBeLessThan(2_000)
      expect(ended).toBe(true)
    })
  })
})
