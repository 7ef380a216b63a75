import { describe, expect, it } from 'vitest'
import type { Item, ItemStore } from '../src/store/item-store.js'
import { contractItems } from './support/contract-items.js'

const { a, b, c } = contractItems
/** `_id`s as another store gave them: earlier than any this store makes now. */
const exported: Item[] = [
  { _id: '5f0000000000000000000002', ...b, year: 1985 },
  { _id: '5f0000000000000000000001', ...a },
  { _id: '5f0000000000000000000003', ...c, cast: ['Bogart', 'Bergman'] },
]

/**
 * The `restore` part of the ItemStore contract (`describeItemStoreContract`): `store()` is the
 * test's fresh store, `list()` its whole list.
 */
export function describeRestoreContract(store: () => ItemStore, list: () => Promise<Item[]>) {
  describe('restore', () => {
    it('stores items with their _ids, listed in _id order, and inserts come after them', async () => {
      expect(await store().restore(exported, { replace: false })).toEqual({
        added: 3,
        replaced: 0,
        skipped: 0,
      })
      const byId = [...exported].sort((x, y) => (x._id < y._id ? -1 : 1))
      expect(await list()).toEqual(byId)
      await store().insert({ id: 'd', name: 'Dune', genre: 'Sci-fi' })
      const after = await list()
      expect(after.map((item) => item.id)).toEqual(['a', 'b', 'c', 'd'])
      expect((after[3]?._id ?? '') > (after[2]?._id ?? '')).toBe(true)
    })

    it('skips items whose id it has, and a second run adds nothing', async () => {
      await store().insert({ ...a, name: 'Alien (kept)' })
      expect(await store().restore(exported, { replace: false })).toEqual({
        added: 2,
        replaced: 0,
        skipped: 1,
      })
      const once = await list()
      expect(once.find((item) => item.id === 'a')?.name).toBe('Alien (kept)')
      expect(await store().restore(exported, { replace: false })).toEqual({
        added: 0,
        replaced: 0,
        skipped: 3,
      })
      expect(await list()).toEqual(once)
    })

    it('with replace, puts each item in the place of the one of its id, _id included', async () => {
      await store().insert({ ...a, name: 'Alien (old)' })
      expect(await store().restore(exported, { replace: true })).toEqual({
        added: 2,
        replaced: 1,
        skipped: 0,
      })
      const restored = await list()
      expect(restored.find((item) => item.id === 'a')).toEqual(exported[1])
      expect(restored).toHaveLength(3)
      expect(await store().find('a')).not.toBeNull()
    })
  })
}
