import { blobBodyBytes } from '@movies-and-mail/http-kit/workers-runtime'
import { describe, expect, it } from 'vitest'
import { JsonListCache } from './json-list-cache.js'

const json = (value: unknown) => Buffer.from(JSON.stringify(value))
const parse = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString())
const text = async (body: Blob | Uint8Array) =>
  body instanceof Blob ? body.text() : Buffer.from(body).toString()
/** An item of 3 KiB: three of them make a list that is shared as a Blob. */
const item = (n: number | string) => ({ n, padding: '.'.repeat(3 * 1024) })

/** A cache of `count` items, keys `k0`, `k1`, ..., read once as a Blob. */
function sharedCache(count: number): JsonListCache {
  const cache = new JsonListCache(
    Array.from({ length: count }, (_, n): [string, string] => [`k${n}`, JSON.stringify(item(n))]),
  )
  cache.shared()
  return cache
}

describe('JsonListCache read as a Blob (a Worker object answers so)', () => {
  it('answers the list as one Blob, the same one until the list changes', async () => {
    const cache = sharedCache(3)
    const first = cache.shared()
    expect(first).toBeInstanceOf(Blob)
    expect(cache.shared()).toBe(first)
    expect(JSON.parse(await text(first))).toEqual([item(0), item(1), item(2)])
    cache.append('k3', json(item(3)))
    const second = cache.shared()
    expect(second).not.toBe(first)
    expect(JSON.parse(await text(second))).toEqual([item(0), item(1), item(2), item(3)])
  })

  it('leaves every list and item it handed out as they were, whatever is appended after', async () => {
    const cache = sharedCache(3)
    const handedOut: { bytes: Uint8Array; shared: Blob | Uint8Array; count: number }[] = []
    const second = cache.get('k1') as Uint8Array
    // Enough appends to fill the room kept after the list and move it to a larger one, twice.
    for (let n = 3; n < 800; n++) {
      if (n % 100 === 3) handedOut.push({ bytes: cache.bytes(), shared: cache.shared(), count: n })
      cache.append(`k${n}`, json(item(n)))
    }
    for (const { bytes, shared, count } of handedOut) {
      expect(parse(bytes)).toHaveLength(count)
      expect(JSON.parse(await text(shared))).toHaveLength(count)
    }
    expect(parse(second)).toEqual(item(1))
    const list = parse(cache.bytes())
    expect(list).toHaveLength(800)
    expect(list[799]).toEqual(item(799))
    expect(JSON.parse(await text(cache.shared()))).toEqual(list)
    expect(parse(cache.get('k799') as Uint8Array)).toEqual(item(799))
    expect(cache.byteLength).toBe(cache.bytes().byteLength)
  })

  it('keeps appending in place across replaced and removed items', async () => {
    const cache = sharedCache(3)
    cache.append('k3', json(item(3)))
    cache.replace('k1', json(item('one, changed')))
    cache.remove('k0')
    cache.append('k4', json(item(4)))
    const expected = [item('one, changed'), item(2), item(3), item(4)]
    expect(JSON.parse(await text(cache.shared()))).toEqual(expected)
    cache.append('k5', json(item(5)))
    expect(parse(cache.bytes())).toEqual([...expected, item(5)])
    expect(parse(cache.get('k5') as Uint8Array)).toEqual(item(5))
  })

  it('answers a list outside blobBodyBytes as bytes', () => {
    const small = new JsonListCache([['k0', '{"n":0}']])
    expect(small.byteLength).toBeLessThan(blobBodyBytes.from)
    expect(small.shared()).toBeInstanceOf(Uint8Array)
    small.append('k1', json({ n: 1 }))
    expect(parse(small.shared() as Uint8Array)).toEqual([{ n: 0 }, { n: 1 }])
    // A Blob of a list this large would be a second copy of it in the object's memory.
    const big = 'x'.repeat(1024 * 1024)
    const cache = new JsonListCache(
      Array.from({ length: 7 }, (_, n): [string, string] => [`k${n}`, JSON.stringify({ big })]),
    )
    expect(cache.shared()).toBeInstanceOf(Blob)
    cache.append('k7', json({ big }))
    expect(cache.byteLength).toBeGreaterThan(blobBodyBytes.upTo)
    const body = cache.shared()
    expect(body).toBeInstanceOf(Uint8Array)
    expect(parse(body as Uint8Array)).toHaveLength(8)
  })
})
