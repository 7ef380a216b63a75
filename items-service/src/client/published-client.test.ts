import { beforeEach, describe, expect, it } from 'vitest'
import {
  createItemsClient,
  InvalidRequestError,
  type ItemEvent,
  ItemsApiError,
  type ItemsClient,
  type SubscribeOptions,
} from '../../../packages/items-client/src/index.js'
import { movies, useTestApp } from '../../test/support/test-app.js'

const apiKey = 'client-test-api-key'

/** What a call rejected with, for the assertions. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call was expected to fail'),
    (error: unknown) => error,
  )

/**
 * Follows the app's change feed until the test closes it; resolves once the stream is open,
 * from when no change is missed. `next()` is the next event.
 */
async function follow(items: ItemsClient, options: SubscribeOptions = {}) {
  const arrived: ItemEvent[] = []
  const waiting: ((event: ItemEvent) => void)[] = []
  const errors: unknown[] = []
  let opened = () => {}
  const open = new Promise<void>((resolve) => {
    opened = resolve
  })
  const subscription = items.subscribe(
    (event) => {
      const take = waiting.shift()
      if (take) take(event)
      else arrived.push(event)
    },
    { ...options, onOpen: () => opened(), onError: (error) => errors.push(error) },
  )
  await open
  const next = () => {
    const event = arrived.shift()
    return event ? Promise.resolve(event) : new Promise<ItemEvent>((take) => waiting.push(take))
  }
  return { subscription, next, errors }
}

// @movies-and-mail/items-client against the real app in-process: its requests are the ones
// the routes take, and the service's error responses reach the caller as ItemsApiError.
describe('the published client against the app', () => {
  const api = useTestApp({ apiKey })
  /** The requests of the test, as `METHOD url`. */
  const sent: string[] = []
  beforeEach(() => {
    sent.length = 0
  })
  const client = (key: string | undefined = apiKey) =>
    createItemsClient('http://items.test', {
      apiKey: key,
      fetch: (url, init) => {
        sent.push(`${init.method} ${url}`)
        return api().request(url, init)
      },
    })

  it('creates, lists, reads, updates and removes items', async () => {
    const items = client()
    expect(await items.create(movies.shawshank)).toEqual([
      { _id: expect.stringMatching(/^[0-9a-f]{24}$/), ...movies.shawshank },
    ])
    await items.create(movies.godfather)
    expect((await items.list()).map((item) => item.id)).toEqual(['tt0111161', 'tt0068646'])
    expect(await items.get('tt0068646')).toMatchObject(movies.godfather)
    const updated = await items.update('tt0111161', { genre: 'Crime' })
    expect(updated[0]).toMatchObject({ ...movies.shawshank, genre: 'Crime' })
    expect(await items.remove('tt0111161')).toEqual([expect.objectContaining(movies.godfather)])
  })

  it.each(['Amélie 2001', 'a/b', '100% Wolf', 'what? #1 & more'])(
    'addresses the id %j as given',
    async (id) => {
      const items = client()
      await items.create({ id, name: 'Some film', genre: 'Drama' })
      expect(await items.get(id)).toMatchObject({ id })
      expect(await items.update(id, { genre: 'Comedy' })).toMatchObject([{ id, genre: 'Comedy' }])
      expect(await items.remove(id)).toEqual([])
    },
  )

  it('rejects a duplicate id with ItemsApiError 409 and the service’s message', async () => {
    const items = client()
    await items.create(movies.shawshank)
    const error = await refusal(items.create(movies.shawshank))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({
      status: 409,
      body: { error: "an item with id 'tt0111161' already exists" },
    })
  })

  it('carries the validation issues of a 400', async () => {
    const error = await refusal(client().create({ id: 'tt1', name: '', genre: 'Drama' }))
    expect(error).toMatchObject({
      status: 400,
      body: { error: 'invalid request body', issues: [{ path: 'name' }] },
    })
    expect((error as ItemsApiError).message).toMatch(/^invalid request body \(name: .+\)$/)
  })

  it('answers 404 for an id no item has', async () => {
    await expect(client().get('nope')).rejects.toMatchObject({
      status: 404,
      body: { error: "item 'nope' not found" },
    })
  })

  it('reads without the key and is refused a write with a wrong one', async () => {
    const stranger = client('wrong-key')
    await expect(stranger.list()).resolves.toEqual([])
    await expect(stranger.create(movies.shawshank)).rejects.toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
  })

  it('reads an item with its ETag, and writes with it as If-Match', async () => {
    const items = client()
    await items.create(movies.shawshank)
    const { item, etag } = await items.read(movies.shawshank.id)
    expect(item).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), ...movies.shawshank })
    expect(etag).toMatch(/^"[^"]+"$/)
    const updated = await items.update(item.id, { genre: 'Crime' }, { ifMatch: etag })
    expect(updated).toEqual([{ ...item, genre: 'Crime' }])
    const again = await items.read(item.id)
    expect(again.etag).not.toBe(etag)
    expect(await items.remove(item.id, { ifMatch: again.etag })).toEqual([])
  })

  it('rejects a write with a stale ifMatch with ItemsApiError 412, changing nothing', async () => {
    const items = client()
    await items.create(movies.shawshank)
    const { etag } = await items.read(movies.shawshank.id)
    await items.update(movies.shawshank.id, { genre: 'Crime' })
    const before = await items.list()
    const stale = { status: 412, body: { error: "item 'tt0111161' does not match If-Match" } }
    const error = await refusal(
      items.update(movies.shawshank.id, { genre: 'War' }, { ifMatch: etag }),
    )
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject(stale)
    await expect(items.remove(movies.shawshank.id, { ifMatch: etag })).rejects.toMatchObject(stale)
    expect(await items.list()).toEqual(before)
  })

  it('lists the items a query selects, in the order it names', async () => {
    const items = client()
    await items.create({ ...movies.shawshank, year: '1994' })
    await items.create(movies.godfather)
    await items.create({ ...movies.darkKnight, genre: 'Crime' })
    const names = (found: { name: string }[]) => found.map((item) => item.name)
    expect(names(await items.list({ genre: 'Crime' }))).toEqual([
      'The Godfather',
      'The Dark Knight',
    ])
    expect(names(await items.list({ genre: 'Crime', sort: 'name' }))).toEqual([
      'The Dark Knight',
      'The Godfather',
    ])
    expect(names(await items.list({ year: '1994', sort: '-name' }))).toEqual([
      'The Shawshank Redemption',
    ])
    expect(sent).toContain('GET http://items.test/items?genre=Crime&sort=name')
    await expect(items.list({ _id: 'x' })).rejects.toMatchObject({
      status: 400,
      body: { error: 'invalid query parameter', issues: [{ path: '_id' }] },
    })
  })

  it('reads a query a page at a time, the pages continuing each other', async () => {
    const items = client()
    for (const movie of Object.values(movies)) await items.create(movie)
    const query = { sort: '-name', limit: 2 } as const
    const first = await items.page(query)
    expect(first.next).toEqual(expect.any(String))
    const second = await items.page({ ...query, cursor: first.next })
    expect(second.next).toBeUndefined()
    expect([...first.items, ...second.items].map((item) => item.name)).toEqual([
      'The Shawshank Redemption',
      'The Godfather',
      'The Dark Knight',
    ])
  })

  it('follows the changes as they happen, and resumes after the last event seen', async () => {
    const items = client()
    await items.create(movies.shawshank)
    const first = await follow(items)
    await items.update(movies.shawshank.id, { genre: 'Crime' })
    const updated = await first.next()
    expect(updated).toEqual({
      type: 'updated',
      id: expect.stringMatching(/^\d+$/),
      item: { _id: expect.any(String), ...movies.shawshank, genre: 'Crime' },
    })
    first.subscription.close()
    expect(first.subscription.lastEventId).toBe(updated.id)

    // Changes while nobody follows come first to a subscription that resumes.
    await items.create(movies.godfather)
    await items.remove(movies.shawshank.id)
    const again = await follow(items, { lastEventId: updated.id })
    const missed = [await again.next(), await again.next()]
    expect(missed.map((event) => event.type === 'reload' || [event.type, event.item.id])).toEqual([
      ['created', movies.godfather.id],
      ['deleted', movies.shawshank.id],
    ])
    again.subscription.close()
    expect([...first.errors, ...again.errors]).toEqual([])
  })

  it('keeps the list a write answers: the next read of it, after that write’s event, is a 304', async () => {
    const answered: string[] = []
    const items = createItemsClient('http://items.test', {
      apiKey,
      fetch: async (url, init) => {
        const response = await api().request(url, init)
        const tag = new Headers(init.headers).get('if-none-match') ?? '-'
        if (!url.endsWith('/events')) answered.push(`${init.method} ${tag} → ${response.status}`)
        return response
      },
    })
    const { next, subscription } = await follow(items)
    const written = await items.create(movies.shawshank)
    expect(await next()).toMatchObject({ type: 'created', item: movies.shawshank })
    expect(await items.list()).toEqual(written)
    expect(answered).toEqual(['POST - → 201', expect.stringMatching(/^GET "[^"]+" → 304$/)])
    subscription.close()
  })

  it('is told to reload after an id the feed no longer knows', async () => {
    const { next, subscription } = await follow(client(), { lastEventId: '1' })
    expect(await next()).toEqual({
      type: 'reload',
      id: expect.any(String),
      reason: expect.any(String),
    })
    subscription.close()
  })

  it('refuses an id no URL can carry before sending anything', async () => {
    const items = client()
    for (const id of ['..', '.', '', '\ud83c']) {
      const error = await refusal(items.get(id))
      expect(error).toBeInstanceOf(InvalidRequestError)
      expect(error).toMatchObject({
        status: 0,
        message: expect.stringContaining(JSON.stringify(id)),
      })
    }
    expect(sent).toEqual([])
  })
})
