import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { StoredItem } from '../items/item.schema.js'
import { EmbeddedItemStore } from './embedded-item-store.js'
import { describeItemStoreContract, parseJsonBody } from './item-store.contract.js'

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
    (await parseJsonBody<StoredItem[]>(await store.list())) ?? []
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

  it('has written an acknowledged write to its file before it resolves', async () => {
    const writer = await EmbeddedItemStore.open(dir)
    await writer.insert(movie(1))
    await writer.insert(movie(2))
    await writer.update('tt1', { name: 'Renamed' })
    await writer.remove('tt2')
    // A second store reads only the file: what the first one acknowledged must be there.
    const reader = await EmbeddedItemStore.open(dir)
    expect(await list(reader)).toEqual(await list(writer))
    await reader.close()
  })

  it('keeps separate collections in separate files', async () => {
    const movies = await EmbeddedItemStore.open(dir, 'movies')
    const other = await EmbeddedItemStore.open(dir, 'other')
    await movies.insert(movie(1))
    expect(await list(other)).toEqual([])
    await Promise.all([movies.close(), other.close()])
  })
})
