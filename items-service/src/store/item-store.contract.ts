import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Item, StoredItem } from '../items/item.schema.js'
import { DuplicateIdError, type ItemQuery, type ItemStore, type JsonBody } from './item-store.js'

const objectId = /^[0-9a-f]{24}$/
const a = { id: 'a', name: 'Alien', genre: 'Horror' }
const b = { id: 'b', name: 'Brazil', genre: 'Satire' }
const c = { id: 'c', name: 'Casablanca', genre: 'Drama' }

/** Parses what a store answered, bytes or a stream. */
export async function parseJsonBody<T>(body: JsonBody | null): Promise<T | null> {
  // Response reads both kinds; the cast only bridges lib.dom's narrower Uint8Array type.
  return body === null ? null : new Response(body as BodyInit).json()
}

/**
 * Registers the behaviour every ItemStore adapter must show. `open` makes a fresh, empty store
 * for each test; the suite closes it afterwards.
 */
export function describeItemStoreContract(name: string, open: () => Promise<ItemStore>): void {
  describe(`${name} (ItemStore contract)`, () => {
    let store: ItemStore
    const list = async () => (await parseJsonBody<StoredItem[]>(await store.list())) ?? []
    const find = (id: string) => store.find(id).then(parseJsonBody<StoredItem>)
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

    it('refuses a duplicate id with DuplicateIdError and lists exactly as before', async () => {
      await store.insert(a)
      const before = await list()
      await expect(store.insert({ ...b, id: 'a' })).rejects.toThrow(DuplicateIdError)
      expect(await list()).toEqual(before)
      expect(await find('a')).toEqual(before[0])
    })

    it('update sets the given fields, keeps the others, _id and place', async () => {
      await store.insert(a)
      await store.insert(b)
      const [first, second] = await list()
      expect(await store.update('a', { genre: 'Sci-fi', year: 1979 })).toBe(true)
      const updated = { ...first, genre: 'Sci-fi', year: 1979 }
      expect(await list()).toEqual([updated, second])
      expect(await find('a')).toEqual(updated)
    })

    it('update can change the id; the item keeps its _id and place', async () => {
      await store.insert(a)
      await store.insert(b)
      const [first, second] = await list()
      expect(await store.update('a', { id: 'z' })).toBe(true)
      expect(await list()).toEqual([{ ...first, id: 'z' }, second])
      expect(await find('a')).toBeNull()
      expect(await find('z')).toEqual({ ...first, id: 'z' })
      await store.insert({ ...c, id: 'a' })
      expect(await ids()).toEqual(['z', 'b', 'a'])
    })

    it('update of a missing id answers false and lists exactly as before', async () => {
      await store.insert(a)
      const before = await list()
      expect(await store.update('x', { name: 'X' })).toBe(false)
      expect(await list()).toEqual(before)
    })

    it('update to an id another item has throws DuplicateIdError and changes nothing', async () => {
      await store.insert(a)
      await store.insert(b)
      const before = await list()
      await expect(store.update('a', { id: 'b', name: 'Clash' })).rejects.toThrow(DuplicateIdError)
      expect(await list()).toEqual(before)
      expect(await find('a')).toEqual(before[0])
      expect(await find('b')).toEqual(before[1])
    })

    it('remove deletes one item and keeps the order of the rest', async () => {
      for (const item of [a, b, c]) await store.insert(item)
      expect(await store.remove('b')).toBe(true)
      expect(await ids()).toEqual(['a', 'c'])
      expect(await find('b')).toBeNull()
      await store.insert(b)
      expect(await ids()).toEqual(['a', 'c', 'b'])
    })

    it('remove of a missing id answers false and lists exactly as before', async () => {
      await store.insert(a)
      const before = await list()
      expect(await store.remove('x')).toBe(false)
      expect(await list()).toEqual(before)
    })

    it('does not change a list already read when the store changes after', async () => {
      await store.insert(a)
      const body = await store.list()
      await store.insert(b)
      expect(await parseJsonBody<StoredItem[]>(body)).toEqual([expect.objectContaining(a)])
    })

    describe('entity tags', () => {
      const decode = (tagged: { body: Uint8Array } | null) =>
        tagged && JSON.parse(new TextDecoder().decode(tagged.body))

      it('tag the bytes list and find answer, strongly and quoted', async () => {
        await store.insert(a)
        const [tagged, one] = [await store.listTagged(), await store.findTagged('a')]
        expect(decode(tagged)).toEqual(await list())
        expect(decode(one)).toEqual(await find('a'))
        for (const { etag } of [tagged, one ?? { etag: '' }]) expect(etag).toMatch(/^"[!#-~]+"$/)
        expect(await store.findTagged('x')).toBeNull()
      })

      it('keep the list tag while nothing changes, and change it at every change', async () => {
        const tags = [(await store.listTagged()).etag]
        expect((await store.listTagged()).etag).toBe(tags[0])
        for (const change of [
          () => store.insert(a),
          () => store.insert(b),
          () => store.update('a', { genre: 'Sci-fi' }),
          () => store.remove('b'),
        ]) {
          await change()
          tags.push((await store.listTagged()).etag)
        }
        expect(new Set(tags).size).toBe(tags.length)
      })

      it("change an item's tag when it changes, not when another one does", async () => {
        await store.insert(a)
        await store.insert(b)
        const before = (await store.findTagged('a'))?.etag
        expect((await store.findTagged('b'))?.etag).not.toBe(before)
        await store.update('b', { genre: 'Noir' })
        expect((await store.findTagged('a'))?.etag).toBe(before)
        await store.update('a', { genre: 'Sci-fi' })
        expect((await store.findTagged('a'))?.etag).not.toBe(before)
      })
    })

    describe('query', () => {
      const run = async (query: Partial<ItemQuery> = {}) => {
        const page = await store.query({ filters: [], ...query })
        const items = JSON.parse(new TextDecoder().decode(page.body)) as StoredItem[]
        return { items, ids: items.map((item) => item.id), next: page.next }
      }
      const seed = async (...items: Item[]) => {
        for (const item of items) await store.insert(item)
      }
      const named = (...names: string[]) => names.map((name, n) => ({ ...a, id: `n${n}`, name }))
      const byName = { field: 'name', descending: false } as const

      it('answers every item in insertion order, as list does, when it selects nothing', async () => {
        await seed(c, a, b)
        expect(await run()).toEqual({ items: await list(), ids: ['c', 'a', 'b'], next: undefined })
      })

      it('keeps the items whose field is exactly the value, every filter holding', async () => {
        await seed(a, { ...b, genre: 'Horror', year: 1979 }, { ...c, genre: 'horror' })
        await store.insert({ ...a, id: 'd', genre: 'Horror ' })
        expect((await run({ filters: [['genre', 'Horror']] })).ids).toEqual(['a', 'b'])
        const both = [['genre', 'Horror'] as const, ['year', '1979'] as const]
        expect((await run({ filters: both })).ids).toEqual(['b'])
        expect((await run({ filters: [['genre', 'Hor']] })).ids).toEqual([])
        expect((await run({ filters: [['rating', 'Horror']] })).ids).toEqual([])
      })

      it('matches a number, boolean or null by its JSON text; never arrays, objects or absence', async () => {
        const extras: Record<string, unknown>[] = [
          { year: 1994 },
          { year: '1994' },
          { year: 1994.5 },
          { year: [1994] },
          { year: { value: 1994 } },
          { seen: true },
          { seen: 'true' },
          { note: null },
          {},
        ]
        await seed(...extras.map((extra, n) => ({ ...a, id: `x${n}`, ...extra })))
        const where = async (field: string, value: string) =>
          (await run({ filters: [[field, value]] })).ids
        expect(await where('year', '1994')).toEqual(['x0', 'x1'])
        expect(await where('year', '1994.0')).toEqual([])
        expect(await where('year', '1994.5')).toEqual(['x2'])
        expect(await where('seen', 'true')).toEqual(['x5', 'x6'])
        expect(await where('note', 'null')).toEqual(['x7'])
      })

      it('sorts by a field either way, ties in insertion order', async () => {
        await seed(...named('B', 'a', 'B', 'A'))
        expect((await run({ sort: byName })).ids).toEqual(['n3', 'n0', 'n2', 'n1'])
        expect((await run({ sort: { ...byName, descending: true } })).ids).toEqual([
          'n1',
          'n0',
          'n2',
          'n3',
        ])
        expect((await run({ sort: { field: 'id', descending: true } })).ids).toEqual([
          'n3',
          'n2',
          'n1',
          'n0',
        ])
      })

      it('compares strings by code point (UTF-8 byte order), not by UTF-16 unit', async () => {
        // U+1F600 is a surrogate pair in UTF-16, whose first unit sorts before U+FF21.
        const names = ['\u{1F600}', '\uFF21', 'é', 'z', 'Z', 'Zz', 'e\u0301']
        await seed(...named(...names))
        const utf8Order = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))
        const sorted = (await run({ sort: byName })).items.map((item) => item.name)
        expect(sorted).toEqual(utf8Order)
        expect(sorted).toEqual(['Z', 'Zz', 'e\u0301', 'z', 'é', '\uFF21', '\u{1F600}'])
      })

      it('answers limit items and where the next page starts, until the last page', async () => {
        await seed(...named('1', '2', '3', '4', '5'))
        const first = await run({ limit: 2 })
        expect(first.ids).toEqual(['n0', 'n1'])
        expect(first.next).toEqual({ _id: first.items[1]?._id })
        const second = await run({ limit: 2, after: first.next })
        expect(second.ids).toEqual(['n2', 'n3'])
        const last = await run({ limit: 2, after: second.next })
        expect(last).toMatchObject({ ids: ['n4'], next: undefined })
      })

      it('gives no next page when no match follows, even if other items do', async () => {
        await seed(a, b, { ...a, id: 'a2' }, c)
        const page = await run({ filters: [['genre', 'Horror']], limit: 2 })
        expect(page).toMatchObject({ ids: ['a', 'a2'], next: undefined })
        expect(await run({ filters: [['genre', 'None']], limit: 2 })).toEqual({
          items: [],
          ids: [],
          next: undefined,
        })
      })

      it('continues a sorted page after its position, also when items were added between pages', async () => {
        await seed(...named('C', 'A', 'E', 'B', 'D'))
        const sort = { ...byName, descending: true }
        const first = await run({ sort, limit: 2 })
        expect(first.items.map((item) => item.name)).toEqual(['E', 'D'])
        expect(first.next).toEqual({ _id: first.items[1]?._id, value: 'D' })
        // Before the position (not shown), a tie after it (shown), and after it (shown).
        await seed(
          { ...a, id: 'before', name: 'Da' },
          { ...a, id: 'tie', name: 'D' },
          { ...a, id: 'after', name: 'Ca' },
        )
        const names: string[] = []
        const ids = new Set<string>()
        for (let page = first; page.next; ) {
          page = await run({ sort, limit: 2, after: page.next })
          for (const item of page.items) {
            names.push(item.name)
            ids.add(item.id)
          }
        }
        expect(names).toEqual(['D', 'Ca', 'C', 'B', 'A'])
        expect([...ids]).toEqual(['tie', 'after', 'n0', 'n3', 'n1'])
      })
    })

    it('ping resolves while the store answers', async () => {
      await expect(store.ping()).resolves.toBeUndefined()
    })

    describe('simultaneous mutations', () => {
      it('let exactly one of two inserts of one id succeed', async () => {
        const results = await Promise.allSettled([store.insert(a), store.insert({ ...b, id: 'a' })])
        expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
        expect(await ids()).toEqual(['a'])
      })

      it('let exactly one of two removes of one id succeed', async () => {
        await store.insert(a)
        const results = await Promise.all([store.remove('a'), store.remove('a')])
        expect(results.sort()).toEqual([false, true])
        expect(await list()).toEqual([])
      })

      it('of one item leave list, find and insert agreeing', async () => {
        await store.insert(a)
        const [renamed, removed] = await Promise.all([
          store.update('a', { id: 'z' }),
          store.remove('a'),
        ])
        expect([renamed, removed].filter(Boolean)).toHaveLength(1)
        const remaining = await ids()
        expect(remaining).toEqual(renamed ? ['z'] : [])
        expect((await find('z')) !== null).toBe(renamed)
        await store.insert({ ...b, id: 'z' }).catch(() => {})
        expect(await ids()).toEqual(['z'])
      })
    })
  })
}
