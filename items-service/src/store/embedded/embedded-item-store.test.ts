import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DataDirInUseError, StoreDamagedError } from '@movies-and-mail/embedded-store'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeItemStoreContract, parseJson } from '../../../test/item-store.contract.js'
import type { Item } from '../item-store.js'
import { EmbeddedItemStore } from './embedded-item-store.js'

const temporaryDirs: string[] = []
async function temporaryDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'items-store-'))
  temporaryDirs.push(dir)
  return dir
}
afterEach(async () => {
  const dirs = temporaryDirs.splice(0)
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

describeItemStoreContract('EmbeddedItemStore', async () =>
  EmbeddedItemStore.open(await temporaryDir()),
)

describe('EmbeddedItemStore on disk', () => {
  let dir: string
  const list = async (store: EmbeddedItemStore) =>
    (await parseJson<Item[]>(await store.list())) ?? []
  const movie = (n: number) => ({ id: `tt${n}`, name: `Movie ${n}`, genre: 'Drama' })

  beforeEach(async () => {
    dir = await temporaryDir()
  })

  it('keeps every item, in insertion order, across close and reopen', async () => {
    const first = await EmbeddedItemStore.open(dir)
    for (const n of [5, 3, 9, 1]) await first.insert(movie(n))
    await first.update('tt3', { genre: 'Comedy' })
    await first.remove('tt9')
    const before = await list(first)
    await first.close()

    const second = await EmbeddedItemStore.open(dir)
    expect(await list(second)).toEqual(before)
    expect(before.map((item) => item.id)).toEqual(['tt5', 'tt3', 'tt1'])
    expect(before[1]?.genre).toBe('Comedy')
    await second.close()
  })

  it('makes later _ids sort after every stored one after reopening', async () => {
    const first = await EmbeddedItemStore.open(dir)
    for (const n of [1, 2, 3]) await first.insert(movie(n))
    await first.close()
    const second = await EmbeddedItemStore.open(dir)
    await second.insert(movie(4))
    const keys = (await list(second)).map((item) => item._id)
    expect([...keys].sort()).toEqual(keys)
    expect(new Set(keys).size).toBe(4)
    await second.close()
  })

  it('refuses a second store on the same directory while the first is open', async () => {
    const first = await EmbeddedItemStore.open(dir)
    await expect(EmbeddedItemStore.open(dir)).rejects.toThrow(DataDirInUseError)
    await expect(EmbeddedItemStore.open(dir)).rejects.toThrow(`pid ${process.pid}`)
    await first.close()
    const second = await EmbeddedItemStore.open(dir)
    await second.close()
  })

  it('refuses to start on a file that is not its store, naming it, and leaves it alone', async () => {
    const file = join(dir, 'items-service.mdb')
    const garbage = Buffer.alloc(64 * 1024, 'not a database ')
    await writeFile(file, garbage)
    await expect(EmbeddedItemStore.open(dir)).rejects.toThrow(StoreDamagedError)
    await expect(EmbeddedItemStore.open(dir)).rejects.toThrow(file)
    expect(await readFile(file)).toEqual(garbage)
  })

  it('keeps separate collections apart', async () => {
    const movies = await EmbeddedItemStore.open(dir, 'movies')
    await movies.insert(movie(1))
    await movies.close()
    const other = await EmbeddedItemStore.open(dir, 'other')
    expect(await list(other)).toEqual([])
    await other.close()
  })

  it('gives items and list new tags after reopening: a tag of the last process names nothing', async () => {
    const first = await EmbeddedItemStore.open(dir)
    await first.insert(movie(1))
    const before = [(await first.list()).etag, (await first.find('tt1'))?.etag]
    await first.close()
    const second = await EmbeddedItemStore.open(dir)
    expect((await second.list()).etag).not.toBe(before[0])
    expect((await second.find('tt1'))?.etag).not.toBe(before[1])
    await second.close()
  })
})

describe('EmbeddedItemStore writes under a condition (If-Match)', () => {
  const movie = { id: 'tt1', name: 'Movie', genre: 'Drama' }

  it('checks If-Match against the tag as of the write, after the writes queued before it', async () => {
    const store = await EmbeddedItemStore.open(await temporaryDir())
    await store.insert(movie)
    const etag = (await store.find('tt1'))?.etag as string
    // Both are queued before either runs: the second is checked against the tag the first left.
    const [first, second] = await Promise.all([
      store.update('tt1', { genre: 'Noir' }, [etag]),
      store.remove('tt1', [etag]),
    ])
    expect(first.ok).toBe(true)
    expect(second).toEqual({ ok: false, why: 'stale', id: 'tt1' })
    expect((await store.find('tt1'))?.etag).not.toBe(etag)
    await store.close()
  })
})
