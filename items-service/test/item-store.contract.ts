import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Item, ItemStore, TaggedList } from '../src/store/item-store.js'
import { describeEtagContract } from './item-store-etag.contract.js'
import { describeOwnerContract } from './item-store-owner.contract.js'
import { describeQueryContract } from './item-store-query.contract.js'
import { describeRestoreContract } from './item-store-restore.contract.js'
import { contractItems, parseJson } from './support/contract-items.js'

// The store tests parse what a store answered as the contract does.
export { parseJson } from './support/contract-items.js'

const objectId = /^[0-9a-f]{24}$/
const { a, b, c } = contractItems

/** What a write answered, as a test compares it: done with the list it answered, or refused. */
async function outcome(
  write: Promise<{ ok: true; list: TaggedList } | { ok: false; why: string; id: string }>,
) {
  const result = await write
  return result.ok ? { ok: true, list: await parseJson<Item[]>(result.list) } : result
}

/**
 * Registers the behaviour every ItemStore adapter must show. `open` makes a fresh, empty store
 * for each test; the suite closes it afterwards.
 */
export function describeItemStoreContract(name: string, open: () => Promise<ItemStore>): void {
  describe(`${name} (ItemStore contract)`, () => {
    let store: ItemStore
    const list = async () => (await parseJson<Item[]>(await store.list())) ?? []
    const find = async (id: string) => await parseJson<Item>(await store.find(id))
    const ids = async () => (await list()).map((item) => item.id)

    beforeEach(async () => {
      store = await open()
    })
    afterEach(async () => {
      await store.close()
    })

    it('starts empty', async () => {
      expect(await list()).toEqual([])
      expect(await find('a')).toBeNull()
    })

    it('lists inserted items in insertion order, each with a 24-hex _id', async () => {
      const items = Array.from({ length: 12 }, (_, n) => ({ ...a, id: `id-${(17 * n) % 12}` }))
      for (const item of items) await store.insert(item)
      const listed = await list()
      expect(listed).toEqual(
        items.map((item) => ({ _id: expect.stringMatching(objectId), ...item })),
      )
      const keys = listed.map((item) => item._id)
      expect(new Set(keys).size).toBe(keys.length)
      expect([...keys].sort()).toEqual(keys)
    })

    it('stores extra fields as given and finds the item with the listed _id', async () => {
      const item = { ...a, year: 1979, tags: ['space', 1, true, null], crew: { by: 'Scott' } }
      await store.insert(item)
      const [listed] = await list()
      expect(listed).toEqual({ _id: expect.stringMatching(objectId), ...item })
      expect(await find('a')).toEqual(listed)
    })

    it('finds by exact id only', async () => {
      await store.insert({ ...a, id: 'Amélie 2001' })
      expect(await find('Amélie 2001')).toMatchObject({ id: 'Amélie 2001' })
      for (const near of ['amélie 2001', 'Amélie', 'Amélie 2001 ', 'Ame\u0301lie 2001']) {
        expect(await find(near), near).toBeNull()
      }
    })

    it('answers every write with the list as the write left it', async () => {
      const created = await outcome(store.insert(a))
      expect(created).toEqual({ ok: true, list: await list() })
      expect(created).toEqual({ ok: true, list: [{ _id: expect.stringMatching(objectId), ...a }] })
      expect(await outcome(store.insert(b))).toEqual({ ok: true, list: await list() })
      expect(await outcome(store.update('a', { genre: 'Noir' }))).toEqual({
        ok: true,
        list: await list(),
      })
      expect(await outcome(store.remove('b'))).toEqual({ ok: true, list: await list() })
      expect(await ids()).toEqual(['a'])
    })

    it('tells how much it holds: its items, and bytes that grow with them', async () => {
      expect(await store.usage()).toEqual({ items: 0, bytes: expect.any(Number) })
      await store.insert(a)
      const one = await store.usage()
      await store.insert({ ...b, note: 'x'.repeat(1_000) })
      const two = await store.usage()
      expect([one.items, two.items]).toEqual([1, 2])
      expect(two.bytes).toBeGreaterThan(one.bytes + 1_000)
      await store.remove('b')
      expect((await store.usage()).items).toBe(1)
    })

    it('refuses a duplicate id, naming it, and lists exactly as before', async () => {
      await store.insert(a)
      const before = await list()
      expect(await store.insert({ ...b, id: 'a' })).toEqual({
        ok: false,
        why: 'duplicate-id',
        id: 'a',
      })
      expect(await list()).toEqual(before)
      expect(await find('a')).toEqual(before[0])
    })

    it('update sets the given fields, keeps the others, _id and place', async () => {
      await store.insert(a)
      await store.insert(b)
      const [first, second] = await list()
      expect((await store.update('a', { genre: 'Sci-fi', year: 1979 })).ok).toBe(true)
      const updated = { ...first, genre: 'Sci-fi', year: 1979 }
      expect(await list()).toEqual([updated, second])
      expect(await find('a')).toEqual(updated)
    })

    it('update can change the id; the item keeps its _id and place', async () => {
      await store.insert(a)
      await store.insert(b)
      const [first, second] = await list()
      expect((await store.update('a', { id: 'z' })).ok).toBe(true)
      expect(await list()).toEqual([{ ...first, id: 'z' }, second])
      expect(await find('a')).toBeNull()
      expect(await find('z')).toEqual({ ...first, id: 'z' })
      await store.insert({ ...c, id: 'a' })
      expect(await ids()).toEqual(['z', 'b', 'a'])
    })

    it('update of a missing id is refused as not found, and lists exactly as before', async () => {
      await store.insert(a)
      const before = await list()
      expect(await store.update('x', { name: 'X' })).toEqual({
        ok: false,
        why: 'not-found',
        id: 'x',
      })
      expect(await list()).toEqual(before)
    })

    it('update to an id another item has is refused, naming it, and changes nothing', async () => {
      await store.insert(a)
      await store.insert(b)
      const before = await list()
      expect(await store.update('a', { id: 'b', name: 'Clash' })).toEqual({
        ok: false,
        why: 'duplicate-id',
        id: 'b',
      })
      expect(await list()).toEqual(before)
      expect(await find('a')).toEqual(before[0])
      expect(await find('b')).toEqual(before[1])
    })

    it('remove deletes one item and keeps the order of the rest', async () => {
      for (const item of [a, b, c]) await store.insert(item)
      expect((await store.remove('b')).ok).toBe(true)
      expect(await ids()).toEqual(['a', 'c'])
      expect(await find('b')).toBeNull()
      await store.insert(b)
      expect(await ids()).toEqual(['a', 'c', 'b'])
    })

    it('remove of a missing id is refused as not found, and lists exactly as before', async () => {
      await store.insert(a)
      const before = await list()
      expect(await store.remove('x')).toEqual({ ok: false, why: 'not-found', id: 'x' })
      expect(await list()).toEqual(before)
    })

    it('does not change a list already read when the store changes after', async () => {
      await store.insert(a)
      const read = await store.list()
      await store.insert(b)
      expect(await parseJson<Item[]>(read)).toEqual([expect.objectContaining(a)])
    })

    describeEtagContract(() => store, list)
    describeQueryContract(() => store, list)
    describeRestoreContract(() => store, list)
    describeOwnerContract(() => store, list)

    it('ping resolves while the store answers', async () => {
      await expect(store.ping()).resolves.toBeUndefined()
    })

    describe('simultaneous mutations', () => {
      it('let exactly one of two inserts of one id succeed', async () => {
        const results = await Promise.all([store.insert(a), store.insert({ ...b, id: 'a' })])
        expect(results.map((result) => result.ok).sort()).toEqual([false, true])
        expect(await ids()).toEqual(['a'])
      })

      it('let exactly one of two removes of one id succeed', async () => {
        await store.insert(a)
        const results = await Promise.all([store.remove('a'), store.remove('a')])
        expect(results.map((result) => result.ok).sort()).toEqual([false, true])
        expect(await list()).toEqual([])
      })

      it('of one item leave list, find and insert agreeing', async () => {
        await store.insert(a)
        const [update, removal] = await Promise.all([
          store.update('a', { id: 'z' }),
          store.remove('a'),
        ])
        const [renamed, removed] = [update.ok, removal.ok]
        expect([renamed, removed].filter(Boolean)).toHaveLength(1)
        const remaining = await ids()
        expect(remaining).toEqual(renamed ? ['z'] : [])
        expect((await find('z')) !== null).toBe(renamed)
        await store.insert({ ...b, id: 'z' })
        expect(await ids()).toEqual(['z'])
      })
    })
  })
}
