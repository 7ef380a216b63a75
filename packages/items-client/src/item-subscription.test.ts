import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  change,
  FeedStandIn,
  item,
  OpenStream,
  settle,
  subscribed,
} from '../test/support/feed-stand-in.js'
import { createItemsClient } from './items-client.js'

describe('subscribe', () => {
  it('asks GET /items/events for an event stream, with the client’s headers, no API key', async () => {
    const feed = new FeedStandIn()
    const client = createItemsClient('http://api.test/', {
      fetch: feed.fetch,
      apiKey: 'items-client-key-1',
      headers: { 'x-request-id': 'trace-1' },
    })
    const subscription = client.subscribe(() => {})
    await settle()
    subscription.close()
    expect(feed.requests.map(({ url, headers }) => ({ url, headers }))).toEqual([
      {
        url: 'http://api.test/items/events',
        headers: { accept: 'text/event-stream', 'x-request-id': 'trace-1' },
      },
    ])
  })

  it('sends the subscription’s headers over the client’s, with each reconnect', async () => {
    const feed = new FeedStandIn()
    feed.answers.push(() => Response.json({ error: 'busy' }, { status: 503 }))
    const client = createItemsClient('http://api.test', {
      fetch: feed.fetch,
      headers: { 'x-request-id': 'trace-1', 'x-tenant': 'a' },
    })
    const subscription = client.subscribe(() => {}, {
      headers: { 'x-request-id': 'feed-1' },
      retryMs: 1,
      onError: () => {},
    })
    await vi.waitFor(() => expect(feed.requests).toHaveLength(2))
    subscription.close()
    for (const { headers } of feed.requests) {
      expect(headers).toEqual({
        accept: 'text/event-stream',
        'x-request-id': 'feed-1',
        'x-tenant': 'a',
      })
    }
  })

  it('emits each change with its item and event id, and a reload with its reason', async () => {
    const { feed, events, errors, subscription } = subscribed()
    await settle()
    const stream = feed.stream(0)
    stream.send('retry: 2000\nid: 10\n\n: heartbeat\n\n')
    stream.send(change('created', '11', item('tt1')))
    // The data of one event on several lines, and a character split between two chunks.
    const updated = `event: updated\nid: 12\ndata: {"_id":"6740a1f2c3d4e5f6a7b8c9d0","id":"tt1",\ndata: "name":"Amélie","genre":"Drama"}\n\n`
    const bytes = new TextEncoder().encode(updated)
    const split = bytes.indexOf(0xc3) + 1
    stream.send(bytes.slice(0, split))
    stream.send(bytes.slice(split))
    stream.send(change('ping', '13', {}))
    stream.send('data: a message without a type\n\n')
    stream.send(change('deleted', '14', item('tt1')))
    stream.send(change('reload', '15', { reason: 'read the list again' }))
    stream.send('event: reload\nid: 16\ndata: no JSON\n\n')
    await settle()
    expect(events).toEqual([
      { type: 'created', id: '11', item: item('tt1') },
      { type: 'updated', id: '12', item: item('tt1', { name: 'Amélie' }) },
      { type: 'deleted', id: '14', item: item('tt1') },
      { type: 'reload', id: '15', reason: 'read the list again' },
      { type: 'reload', id: '16' },
    ])
    expect(subscription.lastEventId).toBe('16')
    expect(errors).toEqual([])
    subscription.close()
  })

  it('starts after the lastEventId it is given, and without one when given none', async () => {
    const given = subscribed({ lastEventId: '1795000000000001' })
    const fresh = subscribed()
    await settle()
    expect(given.feed.lastEventIds).toEqual(['1795000000000001'])
    expect(given.subscription.lastEventId).toBe('1795000000000001')
    expect(fresh.feed.lastEventIds).toEqual([undefined])
    given.subscription.close()
    fresh.subscription.close()
  })

  it('calls onOpen each time the stream opens', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const opened: number[] = []
      const { feed, subscription } = subscribed({ onOpen: () => opened.push(feed.requests.length) })
      await settle()
      feed.stream(0).end()
      await settle()
      await vi.advanceTimersByTimeAsync(1000)
      await settle()
      expect(opened).toEqual([1, 2])
      subscription.close()
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('subscribe: closing', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('cancels the open stream and aborts its fetch; nothing is reported after', async () => {
    const { feed, events, errors, subscription } = subscribed()
    await settle()
    feed.stream(0).send(change('created', '1', item('tt1')))
    await settle()
    subscription.close()
    await settle()
    expect(feed.stream(0).cancelled).toBe(true)
    expect(feed.requests[0]?.signal.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(feed.requests).toHaveLength(1)
    expect(events).toHaveLength(1)
    expect(errors).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('clears the timer of a reconnect it waits for', async () => {
    const { feed, errors, subscription } = subscribed({}, () =>
      Promise.reject(new TypeError('fetch failed')),
    )
    await settle()
    expect(errors).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(1)
    subscription.close()
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(feed.requests).toHaveLength(1)
  })

  it('cancels an answer that comes after it, unread and unreported', async () => {
    let answer: (response: Response) => void = () => {}
    const late = new OpenStream()
    const opened: unknown[] = []
    const { feed, errors, subscription } = subscribed(
      { onOpen: () => opened.push(true) },
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve
        }),
    )
    await settle()
    subscription.close()
    expect(feed.requests[0]?.signal.aborted).toBe(true)
    answer(late.response)
    await settle()
    expect(late.cancelled).toBe(true)
    expect([opened, errors, vi.getTimerCount()]).toEqual([[], [], 0])
  })

  it('closes when its signal aborts; an aborted signal starts nothing', async () => {
    const controller = new AbortController()
    const { feed } = subscribed({ signal: controller.signal })
    await settle()
    controller.abort()
    await settle()
    expect(feed.stream(0).cancelled).toBe(true)
    const { feed: never } = subscribed({ signal: AbortSignal.abort() })
    await settle()
    expect(never.requests).toEqual([])
  })

  it('goes on when a callback throws, throwing its error on its own', async () => {
    const thrown: unknown[] = []
    vi.stubGlobal('queueMicrotask', (task: () => void) => {
      try {
        task()
      } catch (error) {
        thrown.push(error)
      }
    })
    try {
      const feed = new FeedStandIn()
      const seen: string[] = []
      const subscription = createItemsClient('http://api.test', { fetch: feed.fetch }).subscribe(
        (event) => {
          seen.push(event.id)
          if (event.id === '1') throw new Error('a bug in the handler')
        },
      )
      await settle()
      feed.stream(0).send(change('created', '1', item('tt1')) + change('created', '2', item('tt2')))
      await settle()
      expect(seen).toEqual(['1', '2'])
      expect(thrown).toEqual([new Error('a bug in the handler')])
      subscription.close()
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
