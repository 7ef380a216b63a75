import { type Db, MongoClient } from 'mongodb'
import { describe, expect, it } from 'vitest'
import {
  _id,
  follow,
  hex,
  json,
  movie,
  pick,
  timeoutMs,
  until,
  useStandInStore,
} from '../../../test/support/stand-in-store.js'

const { open, standIn, store } = useStandInStore()

/** Runs `work` on the stand-in's `data` database through a client of its own, as another process. */
async function withClient(work: (db: Db) => Promise<unknown>): Promise<void> {
  const client = await new MongoClient(standIn().url).connect()
  try {
    await work(client.db('data'))
  } finally {
    await client.close()
  }
}

describe('MongoItemStore changes, as the server sees it', () => {
  it('are absent on a standalone server', async () => {
    await open()
    expect(store().changes).toBeUndefined()
    expect(standIn().received('aggregate')).toEqual([])
  })

  it('open one change stream on a replica set member, with the item before a delete', async () => {
    await open({ setName: 'rs0' })
    expect(store().changes).toBeDefined()
    const [aggregate] = standIn().received('aggregate')
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
    await until(() => standIn().received('getMore').length > 0)
    expect(standIn().received('getMore')[0]).toMatchObject({ maxTimeMS: timeoutMs / 2 })
  })

  it('leave pre-images out on a server older than 6.0, which refuses the option', async () => {
    await open({ setName: 'rs0', maxWireVersion: 13 })
    expect(standIn().received('aggregate')[0]?.pipeline).toEqual([
      { $changeStream: { fullDocument: 'updateLookup' } },
    ])
  })

  it('publish each change with its resume token as the event id, in order', async () => {
    await open({ setName: 'rs0' })
    const events = follow(store())
    await store().insert({ _id, ...movie })
    await store().update(movie.id, { genre: 'Sci-fi' })
    await store().remove(movie.id)
    await until(() => events.length === 3)
    expect(events.map(({ kind }) => kind)).toEqual(['created', 'updated', 'deleted'])
    const ids = events.map(({ id }) => id)
    expect(new Set(ids).size).toBe(3)
    expect([...ids].sort()).toEqual(ids)
    expect(json(events[0])).toEqual({ _id: hex, ...movie })
    expect(json(events[1])).toEqual({ _id: hex, ...movie, genre: 'Sci-fi' })
    // The collection keeps no pre-images (MongoDB keeps them only where
    // changeStreamPreAndPostImages is on): a delete tells the _id alone.
    expect(json(events[2])).toEqual({ _id: hex })
    expect(store().changes?.lastId).toBe(ids[2])
  })

  it('publish a deleted item whole where the collection keeps pre-images', async () => {
    await open({ setName: 'rs0' })
    const events = follow(store())
    await withClient((db) =>
      db.command({ collMod: 'movies', changeStreamPreAndPostImages: { enabled: true } }),
    )
    await store().insert({ _id, ...movie })
    await store().remove(movie.id)
    await until(() => events.length === 2)
    expect(events[1]?.kind).toBe('deleted')
    expect(json(events[1])).toEqual({ _id: hex, ...movie })
  })

  it('reopen after an error the driver gives up on, from the last resume token', async () => {
    await open({ setName: 'rs0' })
    const events = follow(store())
    await store().insert(movie)
    await until(() => events.length === 1)
    standIn().replyNext('getMore', { ok: 0, code: 8, codeName: 'UnknownError', errmsg: 'boom' })
    await until(() => standIn().received('aggregate').length === 2)
    expect(standIn().received('aggregate')[1]?.pipeline[0].$changeStream).toMatchObject({
      resumeAfter: { _data: events[0]?.id },
    })
    // Nothing written meanwhile is lost.
    await store().insert({ ...movie, id: 'tt0090605' })
    await until(() => events.length === 2)
    expect(json(events[1])).toMatchObject({ id: 'tt0090605' })
  })

  it('start anew and tell followers to reload when the history is lost', async () => {
    await open({ setName: 'rs0' })
    const events = follow(store())
    standIn().replyNext('aggregate', {
      ok: 0,
      code: 286,
      codeName: 'ChangeStreamHistoryLost',
      errmsg: 'resume point no longer in the oplog',
    })
    standIn().replyNext('getMore', { ok: 0, code: 8, codeName: 'UnknownError', errmsg: 'boom' })
    await until(() => events.length === 1)
    expect(events[0]?.kind).toBe('reload')
    const [, resumed, fresh] = standIn().received('aggregate')
    expect(resumed?.pipeline[0].$changeStream).toHaveProperty('resumeAfter')
    expect(fresh?.pipeline[0].$changeStream).not.toHaveProperty('resumeAfter')
  })

  it('start after an invalidate, and tell followers to reload', async () => {
    await open({ setName: 'rs0' })
    const events = follow(store())
    await store().insert(movie)
    await withClient((db) => db.collection('movies').drop())
    await until(() => events.length === 2)
    expect(events.map(({ kind }) => kind)).toEqual(['created', 'reload'])
    const startAfter = standIn().received('aggregate')[1]?.pipeline[0].$changeStream.startAfter
    // The invalidate's token, which comes after the drop's, itself after the insert's.
    expect(startAfter._data > (events[0]?.id ?? '')).toBe(true)
  })

  it('end when the store closes, within the timeout even on a server that stopped answering', async () => {
    await open({ setName: 'rs0' })
    let ended = false
    store().changes?.subscribe({ event: () => {}, end: () => (ended = true) })
    standIn().stall('all')
    const started = performance.now()
    await store().close()
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(ended).toBe(true)
  })
})
