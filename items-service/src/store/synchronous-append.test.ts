import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Datastore from '@seald-io/nedb'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { appendSynchronously } from './synchronous-append.js'

describe('appendSynchronously', () => {
  let dir: string
  let filename: string

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nedb-append-'))
    filename = join(dir, 'movies.db')
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  const open = async () => {
    const db = new Datastore<{ _id: string; id: string; genre?: string }>({ filename })
    await db.loadDatabaseAsync()
    return db
  }

  it('has every write in the file as soon as it resolves, in a form NeDB loads', async () => {
    const db = await open()
    const stop = appendSynchronously(db, filename)
    await db.insertAsync({ _id: 'a', id: 'tt1' })
    await db.updateAsync({ _id: 'a' }, { $set: { genre: 'Drama' } })
    await db.insertAsync({ _id: 'b', id: 'tt2' })
    await db.removeAsync({ _id: 'b' }, {})
    expect((await readFile(filename, 'utf8')).trim().split('\n')).toHaveLength(4)
    stop()
    expect(await (await open()).findAsync({})).toEqual([{ _id: 'a', id: 'tt1', genre: 'Drama' }])
  })

  it('keeps appending to the new file after a compaction replaced it', async () => {
    const db = await open()
    const stop = appendSynchronously(db, filename)
    await db.insertAsync({ _id: 'a', id: 'tt1' })
    await db.compactDatafileAsync()
    await db.insertAsync({ _id: 'b', id: 'tt2' })
    stop()
    const reopened = await (await open()).findAsync({})
    expect(reopened.map((document) => document._id).sort()).toEqual(['a', 'b'])
  })
})
