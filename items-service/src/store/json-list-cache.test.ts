import { describe, expect, it } from 'vitest'
import { JsonListCache } from './json-list-cache.js'

const json = (value: unknown) => Buffer.from(JSON.stringify(value))
const parsed = (cache: JsonListCache) => JSON.parse(cache.bytes().toString())
const one = (cache: JsonListCache, key: string) => {
  const bytes = cache.get(key)
  return bytes === undefined ? undefined : JSON.parse(Buffer.from(bytes).toString())
}

describe('JsonListCache', () => {
  it('starts as [] with no items', () => {
    expect(new JsonListCache([]).bytes().toString()).toBe('[]')
  })

  it('serves the list and each item from the items it starts with, multi-byte text included', () => {
    const cache = new JsonListCache([
      ['a', JSON.stringify({ name: 'Amélie' })],
      ['b', JSON.stringify({ name: '千と千尋' })],
    ])
    expect(parsed(cache)).toEqual([{ name: 'Amélie' }, { name: '千と千尋' }])
    expect(one(cache, 'b')).toEqual({ name: '千と千尋' })
    expect(cache.get('missing')).toBeUndefined()
  })

  it('appends items at the end', () => {
    const cache = new JsonListCache([])
    cache.append('a', json({ n: 1 }))
    cache.append('b', json({ n: 2 }))
    expect(parsed(cache)).toEqual([{ n: 1 }, { n: 2 }])
    expect(one(cache, 'a')).toEqual({ n: 1 })
  })

  it('replaces an item in its place, and serves the new bytes before the list is rebuilt', () => {
    const cache = new JsonListCache([
      ['a', '{"n":1}'],
      ['b', '{"n":2}'],
      ['c', '{"n":3}'],
    ])
    cache.replace('b', json({ n: 'two, longer' }))
    expect(one(cache, 'b')).toEqual({ n: 'two, longer' })
    expect(parsed(cache)).toEqual([{ n: 1 }, { n: 'two, longer' }, { n: 3 }])
    expect(one(cache, 'c')).toEqual({ n: 3 })
  })

  it('removes items, first and last included', () => {
    const cache = new JsonListCache([
      ['a', '{"n":1}'],
      ['b', '{"n":2}'],
      ['c', '{"n":3}'],
    ])
    cache.remove('a')
    cache.remove('c')
    expect(cache.get('a')).toBeUndefined()
    expect(parsed(cache)).toEqual([{ n: 2 }])
    cache.remove('b')
    expect(cache.bytes().toString()).toBe('[]')
  })

  it('keeps insertion order across appends made while changes are pending', () => {
    const cache = new JsonListCache([['a', '{"n":1}']])
    cache.replace('a', json({ n: 10 }))
    cache.append('b', json({ n: 2 }))
    cache.remove('a')
    cache.append('c', json({ n: 3 }))
    expect(parsed(cache)).toEqual([{ n: 2 }, { n: 3 }])
    expect(one(cache, 'c')).toEqual({ n: 3 })
    cache.append('d', json({ n: 4 }))
    expect(parsed(cache)).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }])
    expect(one(cache, 'b')).toEqual({ n: 2 })
  })

  it('does not change a list already handed out', () => {
    const cache = new JsonListCache([['a', '{"n":1}']])
    const before = cache.bytes()
    cache.append('b', json({ n: 2 }))
    cache.replace('a', json({ n: 0 }))
    cache.bytes()
    expect(before.toString()).toBe('[{"n":1}]')
  })

  it('agrees with a plain ordered map over a long run of mixed changes', () => {
    const model = new Map<string, unknown>()
    const cache = new JsonListCache([])
    let next = 0
    let seed = 7
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % below
    }
    for (let step = 0; step < 2000; step += 1) {
      const keys = [...model.keys()]
      const action = random(10)
      if (action < 4 || keys.length === 0) {
        const key = `k${next++}`
        model.set(key, { n: next, text: 'é'.repeat(random(4)) })
        cache.append(key, json(model.get(key)))
      } else if (action < 7) {
        const key = keys[random(keys.length)] as string
        model.set(key, { n: -step })
        cache.replace(key, json(model.get(key)))
      } else {
        const key = keys[random(keys.length)] as string
        model.delete(key)
        cache.remove(key)
      }
      if (random(5) === 0) expect(parsed(cache)).toEqual([...model.values()])
      const probe = [...model.keys()][0]
      if (probe) expect(one(cache, probe)).toEqual(model.get(probe))
      // A read kept from before a change must not answer after it.
      const read = keys[random(keys.length)]
      if (read !== undefined) {
        const tagged = cache.tagged(read)
        expect(tagged && JSON.parse(Buffer.from(tagged.body).toString())).toEqual(model.get(read))
        expect(tagged?.etag).toBe(cache.tagOf(read))
      }
    }
    expect(parsed(cache)).toEqual([...model.values()])
  })

  it('tags the list anew at every change, and an item anew only when it changes', () => {
    const cache = new JsonListCache([
      ['a', '{"n":1}'],
      ['b', '{"n":2}'],
    ])
    const [list, a, b] = [cache.listTag(), cache.tagOf('a'), cache.tagOf('b')]
    expect(new Set([list, a, b]).size).toBe(3)
    cache.replace('b', json({ n: 20 }))
    expect([cache.tagOf('a'), cache.tagOf('b') === b]).toEqual([a, false])
    expect(cache.listTag()).not.toBe(list)
    const afterReplace = cache.listTag()
    cache.append('c', json({ n: 3 }))
    expect(cache.listTag()).not.toBe(afterReplace)
    cache.remove('a')
    expect(cache.tagOf('a')).toBeUndefined()
    cache.bytes()
    expect(cache.tagOf('a')).toBeUndefined()
    expect(cache.tagOf('missing')).toBeUndefined()
  })

  it('answers each read of an item with one record until the list changes, never a stale one', () => {
    const cache = new JsonListCache([
      ['a', '{"n":1}'],
      ['b', '{"n":2}'],
    ])
    const read = cache.tagged('a')
    expect(read && [Buffer.from(read.body).toString(), read.etag]).toEqual([
      '{"n":1}',
      cache.tagOf('a'),
    ])
    expect(cache.tagged('a')).toBe(read)
    expect(Object.isFrozen(read)).toBe(true)
    // Another item's change is the list's: the record is made again, with what did not change.
    cache.replace('b', json({ n: 20 }))
    expect(cache.tagged('a')).not.toBe(read)
    expect(cache.tagged('a')).toEqual(read)
    cache.replace('a', json({ n: 10 }))
    const replaced = cache.tagged('a')
    expect(replaced && Buffer.from(replaced.body).toString()).toBe('{"n":10}')
    expect(replaced?.etag).not.toBe(read?.etag)
    // Rebuilt, the list's bytes move: what was kept went with the old buffer.
    cache.bytes()
    expect(cache.tagged('a')).toEqual(replaced)
    cache.remove('a')
    expect(cache.tagged('a')).toBeUndefined()
    expect(cache.tagged('missing')).toBeUndefined()
  })

  it('keeps the reads of any number of items right, past the records it keeps', () => {
    const items = Array.from(
      { length: 5000 },
      (_, n) => [`k${n}`, `{"n":${n}}`] as [string, string],
    )
    const cache = new JsonListCache(items)
    for (const round of [1, 2]) {
      for (const [key, bytes] of items) {
        const read = cache.tagged(key)
        expect(read && Buffer.from(read.body).toString(), `${key}, round ${round}`).toBe(bytes)
      }
    }
  })

  it('gives the same items other tags in another process (another cache)', () => {
    const [first, second] = [new JsonListCache([['a', '{}']]), new JsonListCache([['a', '{}']])]
    expect(first.listTag()).not.toBe(second.listTag())
    expect(first.tagOf('a')).not.toBe(second.tagOf('a'))
  })

  describe('joined', () => {
    const list = Buffer.from('[{"n":"Amélie"},{"n":2},{}]')
    const lengths = [
      ['a', Buffer.byteLength('{"n":"Amélie"}')],
      ['b', 7],
      ['c', 2],
    ] as const

    it('serves the list and each item from the array and the lengths, and goes on from there', () => {
      const cache = JsonListCache.joined({ list, lengths })
      expect(cache.bytes().toString()).toBe(list.toString())
      expect(one(cache, 'a')).toEqual({ n: 'Amélie' })
      expect(one(cache, 'c')).toEqual({})
      expect([cache.has('b'), cache.has('d')]).toEqual([true, false])
      cache.replace('b', json({ n: 'two' }))
      cache.remove('a')
      cache.append('d', json({ n: 4 }))
      expect(parsed(cache)).toEqual([{ n: 'two' }, {}, { n: 4 }])
      expect(cache.has('a')).toBe(false)
    })

    it('starts from [] with no lengths', () => {
      expect(JsonListCache.joined({ list: Buffer.from('[]'), lengths: [] }).size).toBe(0)
    })

    it('refuses lengths that do not fill the array, and an item that is not an object', () => {
      const refused = [
        { list, lengths: lengths.slice(0, 2) },
        {
          list: Buffer.from('[{},{}'),
          lengths: [
            ['a', 2],
            ['b', 2],
          ] as const,
        },
        {
          list: Buffer.from('[{}{}]'),
          lengths: [
            ['a', 2],
            ['b', 2],
          ] as const,
        },
        { list: Buffer.from('{}'), lengths: [] },
      ]
      for (const joined of refused) expect(() => JsonListCache.joined(joined)).toThrow(/agree/)
      expect(() =>
        JsonListCache.joined({
          list: Buffer.from('[{},[]]'),
          lengths: [
            ['a', 2],
            ['b', 2],
          ],
        }),
      ).toThrow('item b is not a JSON object')
    })
  })
})
