import { describe, expect, it } from 'vitest'
import { EventReader } from '../../test/support/event-reader.js'
import { failingStore } from '../../test/support/failing-store.js'
import { movies, TestApp, useTestApp } from '../../test/support/test-app.js'
import { createApp } from '../app.js'

describe('GET /items/events: the change feed', () => {
  const api = useTestApp({ events: { heartbeatMs: 100 } })
  const follow = async (headers: Record<string, string> = {}) => {
    const response = await api().request('/items/events', { headers })
    expect(response.status).toBe(200)
    return { response, events: new EventReader(response.body) }
  }

  it('is an event stream that starts with where the feed stands', async () => {
    const { response, events } = await follow()
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    const start = await events.block()
    expect(start.retry).toBe('2000')
    expect(start.id).toMatch(/^\d+$/)
    expect(start.event).toBeUndefined()
    await events.cancel()
  })

  it('sends one event for a create, an update and a delete, in order, ids increasing', async () => {
    const { events } = await follow()
    await api().seed(movies.shawshank)
    await api().put(movies.shawshank.id, { genre: 'Crime' })
    await api().delete(movies.shawshank.id)
    const [created, updated, deleted] = [
      await events.event(),
      await events.event(),
      await events.event(),
    ]
    expect([created.event, updated.event, deleted.event]).toEqual(['created', 'updated', 'deleted'])
    const ids = [created, updated, deleted].map((event) => BigInt(event.id as string))
    const [first, second, third] = ids as [bigint, bigint, bigint]
    expect(second).toBeGreaterThan(first)
    expect(third).toBeGreaterThan(second)
    const createdItem = JSON.parse(created.data)
    expect(createdItem).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      ...movies.shawshank,
    })
    expect(JSON.parse(updated.data)).toEqual({ ...createdItem, genre: 'Crime' })
    // A delete says what was deleted, as it was.
    expect(JSON.parse(deleted.data)).toEqual({ ...createdItem, genre: 'Crime' })
    await events.cancel()
  })

  it('replays what a reconnect missed after its Last-Event-ID, then goes on', async () => {
    const first = await follow()
    await api().seed(movies.shawshank)
    const seen = await first.events.event()
    await first.events.cancel()
    // Changes while no one follows.
    await api().seed(movies.godfather)
    await api().delete(movies.shawshank.id)
    const again = await follow({ 'last-event-id': seen.id as string })
    const missed = [await again.events.event(), await again.events.event()]
    expect(missed.map(({ event, data }) => [event, JSON.parse(data).id])).toEqual([
      ['created', movies.godfather.id],
      ['deleted', movies.shawshank.id],
    ])
    await api().seed(movies.darkKnight)
    expect(JSON.parse((await again.events.event()).data).id).toBe(movies.darkKnight.id)
    await again.events.cancel()
  })

  it('replays everything after the starting id of a stream that saw no event', async () => {
    const first = await follow()
    const { id } = await first.events.block()
    await first.events.cancel()
    await api().seed(movies.shawshank)
    const again = await follow({ 'last-event-id': id as string })
    expect((await again.events.event()).event).toBe('created')
    await again.events.cancel()
  })

  it('sends nothing to replay to a reconnect that saw the latest event', async () => {
    await api().seed(movies.shawshank)
    const first = await follow()
    const { id } = await first.events.block()
    await first.events.cancel()
    const again = await follow({ 'last-event-id': id as string })
    const start = await again.events.block()
    expect(start).toEqual({ retry: '2000', id, comments: [] })
    await again.events.cancel()
  })

  it('says reload when the Last-Event-ID is unknown (too old, another process, garbage)', async () => {
    for (const lastEventId of ['1', 'not-an-id', '99999999999999999999']) {
      const { events } = await follow({ 'last-event-id': lastEventId })
      const reload = await events.event()
      expect(reload.event).toBe('reload')
      expect(JSON.parse(reload.data)).toEqual({ reason: expect.stringContaining('read the list') })
      // Its id is where the feed stands: a reconnect after it replays from there.
      await api().seed({ ...movies.shawshank, id: `tt-${lastEventId.length}` })
      const next = await events.event()
      expect(next.event).toBe('created')
      expect(BigInt(next.id as string)).toBeGreaterThan(BigInt(reload.id as string))
      await events.cancel()
    }
  })

  it('keeps a quiet stream open with heartbeat comments', async () => {
    const { events } = await follow()
    await events.block()
    expect(await events.block()).toEqual({ comments: ['heartbeat'] })
    await events.cancel()
  })

  it('follows with CORS, like the other routes', async () => {
    const { response, events } = await follow({ origin: 'https://app.example' })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    await events.cancel()
  })

  it('answers HEAD with the headers and no stream', async () => {
    const response = await api().request('/items/events', { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(await response.text()).toBe('')
  })

  it('is not an item: an item cannot be created with the id events', async () => {
    const body = await api().expectRefused(
      () => api().post({ ...movies.shawshank, id: 'events' }),
      400,
    )
    expect(JSON.stringify(body)).toContain('reserved')
    await api().seed(movies.shawshank)
    await api().expectRefused(() => api().put(movies.shawshank.id, { id: 'events' }), 400)
  })
})

describe('GET /items/events: limits', () => {
  it('answers 503 beyond the number of open streams, and frees a place when one closes', async () => {
    const api = await TestApp.open({ events: { maxStreams: 1 } })
    try {
      const first = new EventReader((await api.request('/items/events')).body)
      const refused = await api.request('/items/events')
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('5')
      expect(await refused.json()).toEqual({ error: expect.stringContaining('too many') })
      await first.cancel()
      const again = await api.request('/items/events')
      expect(again.status).toBe(200)
      await new EventReader(again.body).cancel()
    } finally {
      await api.close()
    }
  })

  it('drops a client that leaves too much unread; it may reconnect and replay', async () => {
    const api = await TestApp.open({ events: { maxUnreadBytes: 2_000 } })
    try {
      const response = await api.request('/items/events')
      // Never read while 40 items of ~100 bytes are created.
      for (let n = 0; n < 40; n += 1) await api.seed({ ...movies.shawshank, id: `tt${n}` })
      const slow = new EventReader(response.body)
      expect(await slow.ended()).toBe('errored')
      // Its place is free again: a follow still works.
      const next = await api.request('/items/events')
      expect(next.status).toBe(200)
      await new EventReader(next.body).cancel()
    } finally {
      await api.close()
    }
  })

  it('replays a full buffer to a reconnect whatever the allowance for unread bytes', async () => {
    const api = await TestApp.open({ events: { maxUnreadBytes: 2_000 } })
    try {
      const start = new EventReader((await api.request('/items/events')).body)
      const { id } = await start.block()
      await start.cancel()
      for (let n = 0; n < 40; n += 1) await api.seed({ ...movies.shawshank, id: `tt${n}` })
      const response = await api.request('/items/events', {
        headers: { 'last-event-id': id as string },
      })
      const replay = new EventReader(response.body)
      for (let n = 0; n < 40; n += 1)
        expect(JSON.parse((await replay.event()).data).id).toBe(`tt${n}`)
      await replay.cancel()
    } finally {
      await api.close()
    }
  })

  it('ends every stream when the store closes (the service stops)', async () => {
    const api = await TestApp.open()
    const events = new EventReader((await api.request('/items/events')).body)
    await events.block()
    await api.close()
    expect(await events.ended()).toBe('ended')
  })

  it('answers 501 over a store that cannot follow its changes', async () => {
    const app = createApp({ store: failingStore(() => new Error('unused')), log: () => {} })
    const response = await app.request('/items/events')
    expect(response.status).toBe(501)
    expect(await response.json()).toEqual({ error: expect.stringContaining('replica set') })
  })
})

describe('GET /items/events: what one client may hold', () => {
  const api = useTestApp({
    events: { heartbeatMs: 100, maxStreamsPerClient: 2, idleCloseMs: 300 },
  })
  const from = (address: string, headers: Record<string, string> = {}) =>
    api().request('/items/events', { headers: { 'cf-connecting-ip': address, ...headers } })

  it('answers 429 to a client past its streams, while another client follows', async () => {
    const held = [await from('203.0.113.7'), await from('203.0.113.7')]
    for (const response of held) expect(response.status).toBe(200)
    const refused = await from('203.0.113.7')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(refused.headers.get('connection')).toBe('close')
    expect(await refused.json()).toEqual({
      error: 'this client holds 2 event streams already, the most one may; close one first',
    })
    const other = await from('198.51.100.1')
    expect(other.status).toBe(200)
    // A stream given back makes room for another.
    await held[0]?.body?.cancel()
    const again = await from('203.0.113.7')
    expect(again.status).toBe(200)
    for (const response of [held[1], other, again]) await response?.body?.cancel()
  })

  it('closes a stream that carried no event for EVENTS_IDLE_CLOSE_MS, saying to reconnect', async () => {
    const events = new EventReader((await from('203.0.113.8')).body)
    const start = await events.block()
    // Heartbeats every 100 ms do not count: no event came.
    const blocks = []
    for (let block = await events.block(2_000); ; block = await events.block(2_000)) {
      blocks.push(block)
      if (block.comments.some((line) => line.includes('idle'))) break
    }
    expect(blocks.at(-1)).toMatchObject({ retry: '2000' })
    await expect(events.block(1_000)).rejects.toThrow()
    // The client comes back after the last id it had and misses nothing.
    await api().seed(movies.shawshank)
    const back = new EventReader(
      (await from('203.0.113.8', { 'last-event-id': start.id as string })).body,
    )
    expect((await back.event()).event).toBe('created')
    await back.cancel()
  })
})
