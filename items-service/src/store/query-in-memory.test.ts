import { describe, expect, it } from 'vitest'
import { compareCodePoints, QueryInMemory } from './query-in-memory.js'

const item = (n: number, fields: Record<string, unknown> = {}) => ({
  _id: n.toString(16).padStart(24, '0'),
  id: `tt${n}`,
  name: `Movie ${n}`,
  genre: 'Drama',
  ...fields,
})
const tagged = (items: object[], etag: string) => ({
  body: Buffer.from(JSON.stringify(items)),
  etag,
})
const text = (body: Uint8Array) => Buffer.from(body).toString()

describe('QueryInMemory', () => {
  it('answers the items as the list holds them, byte for byte', () => {
    const items = [item(1, { year: 1994, note: 'Amélie 😀', tags: [1, null] }), item(2)]
    const list = tagged(items, '"v1"')
    expect(text(new QueryInMemory().run(list, { filters: [] }).body)).toBe(text(list.body))
    const page = new QueryInMemory().run(list, { filters: [['year', '1994']] })
    expect(text(page.body)).toBe(JSON.stringify([items[0]]))
  })

  it('reads a list once per tag: the same tag answers from what it read, a new tag reads anew', () => {
    const queries = new QueryInMemory()
    const query = { filters: [['genre', 'Drama']] as const }
    queries.run(tagged([item(1)], '"v1"'), query)
    const sameTag = queries.run(tagged([item(1), item(2)], '"v1"'), query)
    expect(JSON.parse(text(sameTag.body))).toEqual([item(1)])
    const newTag = queries.run(tagged([item(1), item(2)], '"v2"'), query)
    expect(JSON.parse(text(newTag.body))).toEqual([item(1), item(2)])
  })

  it('sorts anew when the list changed', () => {
    const queries = new QueryInMemory()
    const sort = { field: 'name', descending: false } as const
    queries.run(tagged([item(1, { name: 'B' }), item(2, { name: 'C' })], '"v1"'), {
      filters: [],
      sort,
    })
    const changed = [item(1, { name: 'B' }), item(2, { name: 'C' }), item(3, { name: 'A' })]
    const page = queries.run(tagged(changed, '"v2"'), { filters: [], sort })
    expect(JSON.parse(text(page.body)).map((one: { name: string }) => one.name)).toEqual([
      'A',
      'B',
      'C',
    ])
  })
})

describe('compareCodePoints', () => {
  it('orders strings as their UTF-8 bytes, across surrogate pairs and U+E000..U+FFFF', () => {
    const alphabet = [
      'a',
      'Z',
      'é',
      '\u0000',
      '\ud7ff',
      '\ue000',
      '\uffff',
      '\u{10000}',
      '\u{1F600}',
    ]
    const strings = ['', ...alphabet, ...alphabet.flatMap((x) => alphabet.map((y) => x + y))]
    for (const x of strings) {
      for (const y of strings) {
        const bytes = Buffer.compare(Buffer.from(x), Buffer.from(y))
        const [shownX, shownY] = [JSON.stringify(x), JSON.stringify(y)]
        expect(Math.sign(compareCodePoints(x, y)), `${shownX} vs ${shownY}`).toBe(bytes)
      }
    }
  })
})
