import { describe, expect, it } from 'vitest'
import type { Item, ItemStore, TaggedJson, TaggedList } from '../src/store/item-store.js'
import { contractItems, parseJson } from './support/contract-items.js'

const { a, b } = contractItems

/**
 * The entity-tag part of the ItemStore contract (`describeItemStoreContract`): the tags list and
 * find answer, and what a write under If-Match does with them. `store()` is the test's fresh
 * store, `list()` its whole list.
 */
export function describeEtagContract(store: () => ItemStore, list: () => Promise<Item[]>) {
  const find = async (id: string) => await parseJson<Item>(await store().find(id))

  describe('entity tags', () => {
    const decode = (tagged: TaggedJson | TaggedList | null) => parseJson(tagged)

    it('tag the bytes list and find answer, strongly and quoted', async () => {
      await store().insert(a)
      const [tagged, one] = [await store().list(), await store().find('a')]
      expect(await decode(tagged)).toEqual(await list())
      expect(await decode(one)).toEqual(await find('a'))
      for (const { etag } of [tagged, one ?? { etag: '' }]) expect(etag).toMatch(/^"[!#-~]+"$/)
      expect(await store().find('x')).toBeNull()
    })

    it('let a write under If-Match through on the current tag or *, and refuse a stale one', async () => {
      await store().insert(a)
      const tag = (await store().find('a'))?.etag as string
      expect(await store().update('a', { genre: 'Noir' }, ['"stale"'])).toEqual({
        ok: false,
        why: 'stale',
        id: 'a',
      })
      expect(await store().remove('a', ['"stale"', 'W/"x"'])).toEqual({
        ok: false,
        why: 'stale',
        id: 'a',
      })
      expect((await find('a'))?.genre).toBe(a.genre)
      expect((await store().update('a', { genre: 'Noir' }, ['"other"', tag])).ok).toBe(true)
      expect(await store().update('a', { genre: 'Sci-fi' }, [tag])).toMatchObject({ why: 'stale' })
      expect((await store().update('a', { genre: 'Sci-fi' }, '*')).ok).toBe(true)
      expect(await store().remove('x', '*')).toEqual({ ok: false, why: 'not-found', id: 'x' })
      const current = (await store().find('a'))?.etag as string
      expect((await store().remove('a', [current])).ok).toBe(true)
      expect(await list()).toEqual([])
    })

    it('keep the list tag while nothing changes, and change it at every change', async () => {
      const tags = [(await store().list()).etag]
      expect((await store().list()).etag).toBe(tags[0])
      for (const change of [
        () => store().insert(a),
        () => store().insert(b),
        () => store().update('a', { genre: 'Sci-fi' }),
        () => store().remove('b'),
      ]) {
        await change()
        tags.push((await store().list()).etag)
      }
      expect(new Set(tags).size).toBe(tags.length)
    })

    it('answer a write with the list and the tag that list() then answers', async () => {
      // The items client keeps a write's answer as the list, and asks with its tag next.
      for (const change of [
        () => store().insert(a),
        () => store().insert(b),
        () => store().update('a', { genre: 'Sci-fi' }),
        () => store().remove('b'),
      ]) {
        const written = await change()
        if (!written.ok) throw new Error(`the write was refused: ${written.why}`)
        const listed = await store().list()
        expect(written.list.etag).toBe(listed.etag)
        expect(await parseJson<Item[]>(written.list)).toEqual(await parseJson<Item[]>(listed))
      }
    })

    it("change an item's tag when it changes, not when another one does", async () => {
      await store().insert(a)
      await store().insert(b)
      const before = (await store().find('a'))?.etag
      expect((await store().find('b'))?.etag).not.toBe(before)
      await store().update('b', { genre: 'Noir' })
      expect((await store().find('a'))?.etag).toBe(before)
      await store().update('a', { genre: 'Sci-fi' })
      expect((await store().find('a'))?.etag).not.toBe(before)
    })
  })
}
