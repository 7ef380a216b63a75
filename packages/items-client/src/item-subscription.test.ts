import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ItemEvent } from './item-event.js'
import type { SubscribeOptions } from './item-subscription.js'
import { ItemsApiError } from './items-api-error.js'
import { createItemsClient, type Fetch } from './items-client.js'

const encoder = new TextEncoder()

/** An open `text/event-stream` answer that the test writes to. */
class OpenStream {
  cancelled = false
  readonly response: Response
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined

  constructor() {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller
      },
      cancel: () => {
        this.cancelled = true
      },
    })
    this.response = new Response(body, { headers: { 'content-type': 'text/event-stream' } })
  }

  send(text: string | Uint8Array) {
    this.#controller?.enqueue(typeof text === 'string' ? encoder.encode(text) : text)
  }

  end() {
    this.#controller?.close()
  }

  fail(error: unknown) {
    this.#controller?.error(error)
  }
}

type Answer = () => Response | Promise<Response>

/**
 * `GET /items/events` stood in for: each request is recorded and gets the next of `answers`,
 * or, when none is left, a new open stream.
 */
class FeedStandIn {
  readonly requests: { url: string; headers: Record<string, string>; signal: AbortSignal }[] = []
  readonly streams: OpenStream[] = []
  readonly answers: Answer[] = []

  readonly fetch: Fetch = async (url, init) => {
    const headers = Object.fromEntries(new Headers(init.headers))
    this.requests.push({ url, headers, signal: init.signal as AbortSignal })
    const answer = this.answers.shift()
    if (answer) return answer()
    const stream = new OpenStream()
    this.streams.push(stream)
    return stream.response
  }

  stream(index: number): OpenStream {
    const stream = this.streams[index]
    if (!stream) throw new Error(`no stream ${index} was opened`)
    return stream
  }

  get lastEventIds() {
    return this.requests.map(({ headers }) => headers['last-event-id'])
  }
}

/** The real timer: taken before any test fakes them. */
const realSetTimeout = setTimeout
/** Lets every pending read, fetch and callback run. */
const settle = () => new Promise((resolve) => realSetTimeout(resolve, 0))

const item = (id: string, rest: object = {}) => ({
  _id: '6740a1f2c3d4e5f6a7b8c9d0',
  id,
  name: 'A film',
  genre: 'Drama',
  ...rest,
})
const change = (type: string, id: string, data: object) =>
  `event: ${type}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`

/**
 * A client over a stand-in feed that gives `answers` first, subscribed, recording what it
 * reports. The first request goes out at once.
 */
function subscribed(options: SubscribeOptions = {}, ...answers: Answer[]) {
  const feed = new FeedStandIn()
  feed.answers.push(...answers)
  const events: ItemEvent[] = []
  const errors: [unknown, number | undefined][] = []
  const client = createItemsClient('http://api.test', { fetch: feed.fetch })
  const subscription = client.subscribe((event) => events.push(event), {
    onError: (error, retryInMs) => errors.push([error, retryInMs]),
    ...options,
  })
  return { feed, events, errors, subscription }
}

describe('subscribe', () => {
  it('asks GET /items/events for an event stream, with the client’s headers, no API key', async () => {
    const feed = new FeedStandIn()
    const client = createItemsClient('http://api.test/', {
      fetch: feed.fetch,
      apiKey: 'k1',
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

  it('emits each change with its item and event id, and a reload with its reason', async () => {
    const { feed, events, errors, subscription } = subscribed()
    await settle()
    const stream = feed.stream(0)
    stream.send('retry: 2000\nid: 10\n\n: heartbeat\n\n')
    stream.send(change('created', '11', item('tt1')))
    // The data of one event on several lines, and a character split between two chunks.
    const updated = `event: updated\nid: 12\ndata: {"_id":"6740a1f2c3d4e5f6a7b8c9d0","id":"tt1",\ndata: "name":"Amélie","genre":"Drama"}\n\n`
    const bytes = encoder.encode(updated)
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

describe('subscribe: reconnecting', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reconnects after the service’s retry: once the stream ends, from the last id seen', async () => {
    const { feed, errors, subscription } = subscribed()
    await settle()
    feed.stream(0).send(`retry: 2000\nid: 10\n\n${change('created', '11', item('tt1'))}`)
    feed.stream(0).end()
    await settle()
    expect(errors).toEqual([[new Error('the event stream ended'), 2000]])
    await vi.advanceTimersByTimeAsync(1999)
    expect(feed.requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    await settle()
    expect(feed.lastEventIds).toEqual([undefined, '11'])

    // An id without an event moves it too; a broken connection is a drop like an end.
    feed.stream(1).send('id: 12\n\n')
    feed.stream(1).fail(new TypeError('terminated'))
    await settle()
    expect(errors[1]).toEqual([new TypeError('terminated'), 2000])
    await vi.advanceTimersByTimeAsync(2000)
    await settle()
    expect(feed.lastEventIds).toEqual([undefined, '11', '12'])
    subscription.close()
  })

  it('doubles the wait for each failure in a row, up to maxRetryMs; a 503 waits Retry-After', async () => {
    const unreachable = () => Promise.reject(new TypeError('fetch failed'))
    const busy = () =>
      Response.json({ error: 'too many' }, { status: 503, headers: { 'retry-after': '10' } })
    const { feed, errors, subscription } = subscribed(
      { retryMs: 1000, maxRetryMs: 5000 },
      ...[unreachable, unreachable, unreachable, unreachable, busy],
    )
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await settle()
      await vi.advanceTimersByTimeAsync(errors.at(-1)?.[1] ?? 0)
    }
    await settle()
    expect(errors.map(([, retryInMs]) => retryInMs)).toEqual([1000, 2000, 4000, 5000, 10_000])
    expect(errors[4]?.[0]).toMatchObject({ status: 503, body: { error: 'too many' } })
    // Open again: the next drop waits the first wait again.
    feed.stream(0).end()
    await settle()
    expect(errors.at(-1)?.[1]).toBe(1000)
    subscription.close()
  })

  it('retries an error answer other than 501 and 404', async () => {
    const { feed, errors, subscription } = subscribed({}, () =>
      Response.json({ error: 'database unavailable' }, { status: 500 }),
    )
    await settle()
    expect(errors).toEqual([[expect.any(ItemsApiError), 1000]])
    await vi.advanceTimersByTimeAsync(1000)
    await settle()
    expect(feed.requests).toHaveLength(2)
    subscription.close()
  })

  it.each([
    [501, 'live changes need MongoDB as a replica set (Atlas is one); this server is standalone'],
    [404, 'Not Found'],
  ])('ends at a %i, reporting it, and never reconnects', async (status, error) => {
    const { feed, errors } = subscribed({}, () => Response.json({ error }, { status }))
    await settle()
    expect(errors).toEqual([[expect.any(ItemsApiError), undefined]])
    expect(errors[0]?.[0]).toMatchObject({ status, body: { error } })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(feed.requests).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('ends at an answer that is not an event stream', async () => {
    const page = () =>
      new Response('<h1>Sign in</h1>', { headers: { 'content-type': 'text/html' } })
    const { feed, errors } = subscribed({}, page)
    await settle()
    expect(errors).toEqual([
      [
        expect.objectContaining({ message: '200: the answer is text/html, not an event stream' }),
        undefined,
      ],
    ])
    expect(errors[0]?.[0]).toBeInstanceOf(ItemsApiError)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(feed.requests).toHaveLength(1)
  })

  it('drops a stream whose change carries no item, and replays from the event before', async () => {
    const { feed, events, errors, subscription } = subscribed()
    await settle()
    feed.stream(0).send(change('created', '1', item('tt1')))
    feed.stream(0).send('event: updated\nid: 2\ndata: {"id":\n\n')
    feed.stream(0).send(change('deleted', '3', item('tt1')))
    await settle()
    expect(events.map(({ id }) => id)).toEqual(['1'])
    expect(errors).toEqual([[expect.objectContaining({ name: 'EventFormatError' }), 1000]])
    expect(feed.stream(0).cancelled).toBe(true)
    await vi.advanceTimersByTimeAsync(1000)
    await settle()
    expect(feed.lastEventIds).toEqual([undefined, '1'])
    subscription.close()
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
