import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { change, item, settle, subscribed } from '../test/support/feed-stand-in.js'
import { ItemsApiError } from './items-api-error.js'

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
