import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import { Long } from 'mongodb'
import { describe, expect, it } from 'vitest'
import { _id, hex, movie, pick, useStandInStore } from '../../../test/support/stand-in-store.js'

const { open, standIn, store } = useStandInStore()
const decoder = new TextDecoder()

describe('MongoItemStore, as the server sees it', () => {
  describe('query', () => {
    it('sends filter, sort and one more than the limit, and answers the page', async () => {
      await open()
      const stored = [
        { id: 'tt1', name: 'Aliens', genre: 'Horror' },
        { id: 'tt2', name: 'Alien', genre: 'Horror' },
        { id: 'tt3', name: 'Avatar', genre: 'Horror' },
        { id: 'tt4', name: 'Aliens', genre: 'Sci-fi' },
        { id: 'tt5', name: 'Aliens', genre: 'Horror' },
      ]
      for (const item of stored) await store().insert(item)
      const page = await store().query({
        filters: [['genre', 'Horror']],
        sort: { field: 'name', descending: false },
        limit: 2,
        after: { _id: hex, value: 'Aliens' },
      })
      // Each insert read the list after it; the query's find is the last.
      const find = standIn().received('find').at(-1)
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
      // After ('Aliens', an _id older than every item's), in the genre: by name, then by _id.
      const items = JSON.parse(decoder.decode(page.body))
      expect(items.map((item: { id: string }) => item.id)).toEqual(['tt1', 'tt5'])
      expect(page.next).toEqual({ _id: items[1]._id, value: 'Aliens' })
    })

    it('answers no next position when the page holds the last item', async () => {
      await open()
      await store().insert(movie)
      const page = await store().query({ filters: [], limit: 1 })
      expect(pick(standIn().received('find').at(-1), 'filter', 'sort', 'limit')).toEqual({
        filter: {},
        sort: { _id: 1 },
        limit: 2,
      })
      expect(page.next).toBeUndefined()
    })

    it('creates the indexes that serve sorted pages, next to id_unique', async () => {
      await open()
      const [{ indexes }] = standIn().received('createIndexes') as [{ indexes: unknown[] }]
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
    standIn().stall()
    for (const operation of [
      () => store().query({ filters: [['genre', 'Horror']], limit: 5 }),
      () => store().update(movie.id, { genre: 'Sci-fi' }, '*'),
      () => store().remove(movie.id, '*'),
    ]) {
      const started = performance.now()
      await expect(operation()).rejects.toThrow(StoreUnavailableError)
      expect(performance.now() - started).toBeLessThan(2_000)
    }
  })

  describe('If-Match', () => {
    const stored = { _id, ...movie }
    /** The read of the item answered as `stored`, its fields in stored order, whatever it is now. */
    const readResponse = () =>
      standIn().replyNext('find', {
        ok: 1,
        cursor: {
          id: Long.ZERO,
          ns: 'data.movies',
          firstBatch: [{ fields: Object.entries(stored).map(([k, v]) => ({ k, v })) }],
        },
      })
    const tagOf = async () => (await store().find(movie.id))?.etag ?? ''

    it('filters the write on the whole item as read, field by field in stored order', async () => {
      await open()
      await store().insert(stored)
      const etag = await tagOf()
      expect(await store().update(movie.id, { genre: 'Sci-fi' }, [etag])).toMatchObject({
        ok: true,
      })
      expect(JSON.parse(decoder.decode((await store().find(movie.id))?.body))).toEqual({
        ...stored,
        _id: hex,
        genre: 'Sci-fi',
      })
      // The read of the item as stored, before the write (the list is read after it).
      const read = standIn()
        .received('find')
        .find((command) => command.projection?.fields !== undefined)
      expect(read).toMatchObject({
        filter: { id: movie.id },
        projection: { _id: 0, fields: { $objectToArray: '$$ROOT' } },
        limit: 1,
      })
      const [update] = standIn().received('update') as [{ updates: unknown[] }]
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
      await store().insert(stored)
      expect(await store().remove(movie.id, ['"stale"'])).toEqual({
        ok: false,
        why: 'stale',
        id: movie.id,
      })
      expect(standIn().commandNames()).not.toContain('delete')
    })

    it('refuses as stale when the item changed between read and write', async () => {
      await open()
      await store().insert(stored)
      await store().update(movie.id, { genre: 'Sci-fi' })
      // The read answers the item as it was before that update: the delete filtered on it
      // matches nothing, and the item, still there, has changed.
      readResponse()
      expect(await store().remove(movie.id, '*')).toEqual({ ok: false, why: 'stale', id: movie.id })
      expect(standIn().received('delete')[0]).toMatchObject({
        deletes: [{ q: { _id, $expr: expect.any(Object) }, limit: 1 }],
      })
      expect(standIn().received('find').at(-1)).toMatchObject({
        filter: { _id },
        projection: { _id: 1 },
      })
      expect(await store().find(movie.id)).not.toBeNull()
    })

    it('refuses as not found when the item was removed between read and write', async () => {
      await open()
      readResponse()
      expect(await store().update(movie.id, { genre: 'Sci-fi' }, '*')).toEqual({
        ok: false,
        why: 'not-found',
        id: movie.id,
      })
    })
  })
})
