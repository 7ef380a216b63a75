import { describe, expect, it } from 'vitest'
import type { Item, ItemQuery, ItemStore, NewItem } from '../src/store/item-store.js'
import { contractItems } from './support/contract-items.js'

const { a, b, c } = contractItems

/**
 * The `query` part of the ItemStore contract (`describeItemStoreContract`): `store()` is the
 * test's fresh store, `list()` its whole list.
 */
export function describeQueryContract(store: () => ItemStore, list: () => Promise<Item[]>) {
  describe('query', () => {
    const run = async (query: Partial<ItemQuery> = {}) => {
      const page = await store().query({ filters: [], ...query })
      const items = JSON.parse(new TextDecoder().decode(page.body)) as Item[]
      return { items, ids: items.map((item) => item.id), next: page.next }
    }
    const seed = async (...items: NewItem[]) => {
      for (const item of items) await store().insert(item)
    }
    const named = (...names: string[]) => names.map((name, n) => ({ ...a, id: `n${n}`, name }))
    const byName = { field: 'name', descending: false } as const

    it('answers every item in insertion order, as list does, when it selects nothing', async () => {
      await seed(c, a, b)
      expect(await run()).toEqual({ items: await list(), ids: ['c', 'a', 'b'], next: undefined })
    })

    it('keeps the items whose field is exactly the value, every filter holding', async () => {
      await seed(a, { ...b, genre: 'Horror', year: 1979 }, { ...c, genre: 'horror' })
      await store().insert({ ...a, id: 'd', genre: 'Horror ' })
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

    // U+1F600 is a surrogate pair in UTF-16, whose first unit sorts before U+FF21.
    const names = ['\u{1F600}', '\uFF21', 'é', 'z', 'Z', 'Zz', 'e\u0301']
    const utf8Order = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))
    it('compares strings by code point (UTF-8 byte order), not by UTF-16 unit', async () => {
      await seed(...named(...names))
      const sorted = (await run({ sort: byName })).items.map((item) => item.name)
      expect(sorted).toEqual(utf8Order)
      expect(sorted).toEqual(['Z', 'Zz', 'e\u0301', 'z', 'é', '\uFF21', '\u{1F600}'])
    })

    it('pages a sort on strings in code point order, either way', async () => {
      await seed(...named(...names))
      for (const descending of [false, true]) {
        const paged: string[] = []
        let after: ItemQuery['after']
        do {
          const page = await run({ sort: { ...byName, descending }, limit: 2, after })
          paged.push(...page.items.map((item) => item.name))
          after = page.next
        } while (after)
        expect(paged).toEqual(descending ? [...utf8Order].reverse() : utf8Order)
      }
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
}
