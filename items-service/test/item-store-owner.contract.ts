import { describe, expect, it } from 'vitest'
import type { Item, ItemStore, TaggedJson } from '../src/store/item-store.js'
import { contractItems } from './support/contract-items.js'

const { a, b } = contractItems

/**
 * The `_owner` part of the ItemStore contract (`describeItemStoreContract`): a write `by` a user
 * changes only that user's items, checked in the same step as the write. `store()` is the
 * test's fresh store, `list()` its whole list.
 */
export function describeOwnerContract(store: () => ItemStore, list: () => Promise<Item[]>) {
  const etagOf = async (id: string) => ((await store().find(id)) as TaggedJson).etag

  describe('owners', () => {
    it('keep the _owner an insert gives, through updates, in list, find and query', async () => {
      await store().insert({ ...a, _owner: 'alice' })
      await store().insert(b)
      expect((await store().update('a', { genre: 'Noir' }, undefined, 'alice')).ok).toBe(true)
      const [first, second] = await list()
      expect(first).toMatchObject({ id: 'a', _owner: 'alice', genre: 'Noir' })
      expect(second).not.toHaveProperty('_owner')
      const page = await store().query({ filters: [['_owner', 'alice']] })
      const found = JSON.parse(new TextDecoder().decode(page.body)) as Item[]
      expect(found.map((item) => item.id)).toEqual(['a'])
    })

    it("refuse another user's update and remove as not-owner, changing nothing", async () => {
      await store().insert({ ...a, _owner: 'alice' })
      const before = await list()
      expect(await store().update('a', { name: 'X' }, undefined, 'bob')).toEqual({
        ok: false,
        why: 'not-owner',
        id: 'a',
      })
      expect(await store().remove('a', undefined, 'bob')).toEqual({
        ok: false,
        why: 'not-owner',
        id: 'a',
      })
      // Under If-Match with the current tag, and with `*`, the item is still not theirs.
      const etag = await etagOf('a')
      for (const ifMatch of [[etag], '*'] as const) {
        expect((await store().update('a', { name: 'X' }, ifMatch, 'bob')).ok).toBe(false)
        expect(await store().remove('a', ifMatch, 'bob')).toMatchObject({ why: 'not-owner' })
      }
      expect(await list()).toEqual(before)
    })

    it('refuse a user on an item without an owner; the key (no `by`) writes every item', async () => {
      await store().insert(a)
      await store().insert({ ...b, _owner: 'alice' })
      expect(await store().update('a', { name: 'X' }, undefined, 'alice')).toMatchObject({
        why: 'not-owner',
      })
      expect((await store().update('b', { name: 'Y' })).ok).toBe(true)
      expect((await store().remove('b')).ok).toBe(true)
      expect((await store().remove('a')).ok).toBe(true)
    })

    it("let the owner's write under If-Match through on the current tag, refuse a stale one", async () => {
      await store().insert({ ...a, _owner: 'alice' })
      const etag = await etagOf('a')
      expect(await store().update('a', { name: 'X' }, ['"stale"'], 'alice')).toMatchObject({
        why: 'stale',
      })
      expect((await store().update('a', { name: 'X' }, [etag], 'alice')).ok).toBe(true)
      expect((await store().remove('a', '*', 'alice')).ok).toBe(true)
      expect(await list()).toEqual([])
    })

    it('answer not-found before not-owner for a missing id', async () => {
      expect(await store().remove('missing', undefined, 'bob')).toMatchObject({ why: 'not-found' })
      expect(await store().update('missing', { name: 'X' }, undefined, 'bob')).toMatchObject({
        why: 'not-found',
      })
    })

    it("let no update of another user's item through while its owner changes it", async () => {
      await store().insert({ ...a, _owner: 'alice' })
      const writes = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          n % 2 === 0
            ? store().update('a', { genre: `alice-${n}` }, undefined, 'alice')
            : store().update('a', { genre: `bob-${n}` }, undefined, 'bob'),
        ),
      )
      expect(writes.filter((write) => write.ok)).toHaveLength(5)
      expect((await list())[0]?.genre).toMatch(/^alice-/)
    })
  })
}
