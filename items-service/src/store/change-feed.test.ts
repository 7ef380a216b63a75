import { describe, expect, it } from 'vitest'
import { ChangeFeed, type FeedEvent } from './change-feed.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (event: FeedEvent) => new TextDecoder().decode(event.data)

/** A follower that keeps what it is told. */
function follower() {
  const heard: FeedEvent[] = []
  let ended = false
  return {
    heard,
    ended: () => ended,
    subscriber: { event: (event: FeedEvent) => heard.push(event), end: () => (ended = true) },
  }
}

describe('ChangeFeed', () => {
  it('tells every follower each change, in order, with increasing ids', () => {
    const feed = new ChangeFeed()
    const [one, two] = [follower(), follower()]
    feed.subscribe(one.subscriber)
    feed.subscribe(two.subscriber)
    feed.publish('created', bytes('{"id":"a"}'))
    feed.publish('deleted', bytes('{"id":"a"}'))
    expect(one.heard.map((event) => event.kind)).toEqual(['created', 'deleted'])
    expect(two.heard).toEqual(one.heard)
    const [first, second] = one.heard.map((event) => BigInt(event.id)) as [bigint, bigint]
    expect(second).toBeGreaterThan(first)
    expect(feed.lastId).toBe(one.heard[1]?.id)
  })

  it('starts its ids after those of an earlier feed (an earlier process)', async () => {
    const earlier = new ChangeFeed()
    for (let n = 0; n < 100; n += 1) earlier.publish('created', bytes('{}'))
    await new Promise((resolve) => setTimeout(resolve, 2))
    const later = new ChangeFeed()
    expect(BigInt(later.lastId)).toBeGreaterThan(BigInt(earlier.lastId))
    expect(later.since(earlier.lastId)).toBeNull()
  })

  it('replays what came after an id it keeps, nothing after the latest', () => {
    const feed = new ChangeFeed()
    const start = feed.lastId
    for (const id of ['a', 'b', 'c']) feed.publish('created', bytes(id))
    const ids = (feed.since(start) ?? []).map((event) => event.id)
    expect((feed.since(start) ?? []).map(text)).toEqual(['a', 'b', 'c'])
    expect((feed.since(ids[0] as string) ?? []).map(text)).toEqual(['b', 'c'])
    expect(feed.since(feed.lastId)).toEqual([])
    expect(feed.since('garbage')).toBeNull()
  })

  it('keeps only the latest events, by count and by bytes', () => {
    const byCount = new ChangeFeed({ capacity: 2 })
    const start = byCount.lastId
    const seen: string[] = []
    for (const id of ['a', 'b', 'c']) {
      byCount.publish('created', bytes(id))
      seen.push(byCount.lastId)
    }
    expect(byCount.since(start)).toBeNull()
    // 'b' and 'c' are kept: a follower that saw 'a' misses nothing.
    expect((byCount.since(seen[0] as string) ?? []).map(text)).toEqual(['b', 'c'])
    expect((byCount.since(seen[1] as string) ?? []).map(text)).toEqual(['c'])
    const bySize = new ChangeFeed({ maxBytes: 10 })
    bySize.publish('created', bytes('12345678'))
    const afterFirst = bySize.lastId
    bySize.publish('created', bytes('abcdefgh'))
    expect((bySize.since(afterFirst) ?? []).map(text)).toEqual(['abcdefgh'])
    bySize.publish('created', bytes('ABCDEFGH'))
    expect(bySize.since(afterFirst)).toBeNull()
  })

  it('says reload to followers, and to a reconnect from before it, when history is lost', () => {
    const feed = new ChangeFeed()
    const { heard, subscriber } = follower()
    feed.publish('created', bytes('a'))
    const before = feed.lastId
    feed.subscribe(subscriber)
    feed.reload('the database lost its history')
    expect(heard).toEqual([expect.objectContaining({ kind: 'reload', id: feed.lastId })])
    expect(JSON.parse(text(heard[0] as FeedEvent))).toEqual({
      reason: 'the database lost its history',
    })
    expect(feed.since(before)).toBeNull()
    feed.publish('updated', bytes('b'))
    expect((feed.since((heard[0] as FeedEvent).id) ?? []).map(text)).toEqual(['b'])
  })

  it('takes the store ids it is given', () => {
    const feed = new ChangeFeed()
    feed.publish('created', bytes('a'), '82650A1B2C000000012B0229296E04')
    expect(feed.lastId).toBe('82650A1B2C000000012B0229296E04')
  })

  it('stops telling a follower that unsubscribed, or that failed', () => {
    const feed = new ChangeFeed()
    const quiet = follower()
    const unsubscribe = feed.subscribe(quiet.subscriber)
    const failing = follower()
    feed.subscribe({
      event: () => {
        throw new Error('broken pipe')
      },
      end: failing.subscriber.end,
    })
    unsubscribe()
    feed.publish('created', bytes('a'))
    expect(quiet.heard).toEqual([])
    expect(failing.ended()).toBe(true)
    expect(feed.followers).toBe(0)
  })

  it('ends every follow, and any later one at once', () => {
    const feed = new ChangeFeed()
    const before = follower()
    feed.subscribe(before.subscriber)
    feed.end()
    expect(before.ended()).toBe(true)
    const after = follower()
    feed.subscribe(after.subscriber)
    expect(after.ended()).toBe(true)
    expect(feed.followers).toBe(0)
  })
})
