import { describe, expect, it } from 'vitest'
import { FeedStandIn, item, settle } from '../test/support/feed-stand-in.js'
import { ItemsStandIn, movie } from '../test/support/items-stand-in.js'
import { ItemsApiError } from './items-api-error.js'
import { createItemsClient } from './items-client.js'

/** A client over a stand-in service holding three dramas and a comedy. */
function service(options: { cache?: boolean } = {}) {
  const api = new ItemsStandIn()
  api.add(movie('tt01'), movie('tt02'), movie('tt03'), movie('tt04', { genre: 'Comedy' }))
  const items = createItemsClient('http://api.test', { fetch: api.fetch, ...options })
  /** What was asked since the last look: `METHOD url if-none-match → status`. */
  const exchanges = () => {
    const seen = api.requests.map(
      ({ method, url, headers }, index) =>
        `${method} ${url.replace('http://api.test', '')} ${headers['if-none-match'] ?? '-'} → ${api.statuses[index]}`,
    )
    api.requests.length = 0
    api.statuses.length = 0
    return seen
  }
  return { api, items, exchanges }
}

const tag = expect.stringMatching(/^"\w+"$/)

describe('conditional reads', () => {
  it('send the last tag of a list again, and resolve its 304 to the kept answer', async () => {
    const { items, exchanges } = service()
    const first = await items.list({ genre: 'Drama' })
    const second = await items.list({ genre: 'Drama' })
    expect(second).toEqual(first)
    expect(second.map((each) => each.id)).toEqual(['tt01', 'tt02', 'tt03'])
    const [answered, asked] = exchanges()
    expect(answered).toMatch(/^GET \/items\?genre=Drama - → 200$/)
    expect(asked).toMatch(/^GET \/items\?genre=Drama "\w+" → 304$/)
  })

  it('keep an answer per URL: another query, item or page is asked for whole', async () => {
    const { items, exchanges } = service()
    await items.list()
    await items.list({ genre: 'Comedy' })
    await items.get('tt01')
    await items.get('tt02')
    expect(exchanges().map((line) => line.split(' ')[2])).toEqual(['-', '-', '-', '-'])
    await items.list()
    await items.list({ genre: 'Comedy' })
    await items.get('tt01')
    expect(exchanges().map((line) => line.split(' → ')[1])).toEqual(['304', '304', '304'])
  })

  it('resolve a 304 of page to the kept page, its next cursor included', async () => {
    const { items, exchanges } = service()
    const first = await items.page({ genre: 'Drama', limit: 2 })
    const again = await items.page({ genre: 'Drama', limit: 2 })
    expect(again).toEqual({ items: first.items, next: '2' })
    expect(exchanges()[1]).toMatch(/→ 304$/)
  })

  it('resolve a 304 of read to the kept item and its tag', async () => {
    const { items, exchanges } = service()
    const first = await items.read('tt01')
    expect(first).toEqual({ item: movie('tt01'), etag: tag })
    await expect(items.read('tt01')).resolves.toEqual(first)
    await expect(items.get('tt01')).resolves.toEqual(first.item)
    expect(exchanges().map((line) => line.split(' → ')[1])).toEqual(['200', '304', '304'])
  })

  it('answer a copy of its own each time: changing a result changes no later one', async () => {
    const { items } = service()
    const first = await items.list()
    first.pop()
    const item = first[0] as { name: string }
    item.name = 'Changed here'
    const second = await items.list()
    expect(second).toHaveLength(4)
    expect(second[0]?.name).toBe('Film tt01')
  })

  it('read the new answer when the list changed elsewhere', async () => {
    const { api, items, exchanges } = service()
    await items.list({ genre: 'Comedy' })
    api.add(movie('tt05', { genre: 'Comedy' }))
    const changed = await items.list({ genre: 'Comedy' })
    expect(changed.map((each) => each.id)).toEqual(['tt04', 'tt05'])
    expect(exchanges()[1]).toMatch(/^GET \/items\?genre=Comedy "\w+" → 200$/)
    await items.list({ genre: 'Comedy' })
    expect(exchanges()).toEqual([expect.stringMatching(/→ 304$/)])
  })

  it('are off with cache: false: no tag is sent, every answer is whole', async () => {
    const { items, exchanges } = service({ cache: false })
    await items.list()
    await items.list()
    await items.read('tt01')
    await items.read('tt01')
    expect(exchanges().map((line) => line.split(' ').slice(2).join(' '))).toEqual([
      '- → 200',
      '- → 200',
      '- → 200',
      '- → 200',
    ])
  })

  it('leave a caller’s own If-None-Match as it is, and reject the 304 it gets', async () => {
    const { items, exchanges } = service()
    const { etag } = await items.read('tt01')
    const error = await items
      .get('tt01', { headers: { 'if-none-match': etag } })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ status: 304 })
    const other = await items.get('tt01', { headers: { 'if-none-match': '"other"' } })
    expect(other).toEqual(movie('tt01'))
    expect(exchanges().map((line) => line.split(' ').slice(2).join(' '))).toEqual([
      '- → 200',
      `${etag} → 304`,
      '"other" → 200',
    ])
  })
})

describe('the list a write answers', () => {
  it('is kept with its tag: the next read of the list is a 304, resolved to it', async () => {
    const { items, exchanges } = service()
    await items.list()
    const written = await items.create(movie('tt09'))
    const listed = await items.list()
    expect(listed).toEqual(written)
    expect(listed.map((each) => each.id)).toEqual(['tt01', 'tt02', 'tt03', 'tt04', 'tt09'])
    expect(exchanges().slice(1)).toEqual([
      'POST /items - → 201',
      expect.stringMatching(/^GET \/items "\w+" → 304$/),
    ])
  })

  it('is kept after an update and a remove too, and a query is still asked for whole', async () => {
    const { items, exchanges } = service()
    await items.update('tt01', { genre: 'Crime' })
    await items.remove('tt02')
    exchanges()
    expect((await items.list()).map((each) => each.id)).toEqual(['tt01', 'tt03', 'tt04'])
    await items.list({ genre: 'Crime' })
    expect(exchanges().map((line) => line.split(' ').slice(1).join(' '))).toEqual([
      expect.stringMatching(/^\/items "\w+" → 304$/),
      '/items?genre=Crime - → 200',
    ])
  })

  it('is read whole again once another client changed the list', async () => {
    const { api, items, exchanges } = service()
    await items.create(movie('tt09'))
    api.add(movie('tt10'))
    exchanges()
    expect((await items.list()).map((each) => each.id)).toContain('tt10')
    expect(exchanges()).toEqual([expect.stringMatching(/^GET \/items "\w+" → 200$/)])
  })

  it('stays kept through the event of that write, and not through another’s', async () => {
    const feed = new FeedStandIn()
    const { api, exchanges } = service()
    const items = createItemsClient('http://api.test', {
      fetch: (url, init) =>
        url.endsWith('/events') ? feed.fetch(url, init) : api.fetch(url, init),
    })
    const subscription = items.subscribe(() => {})
    await settle()
    const list = await items.create(movie('tt09', { year: 1994 }))
    const created = list.find((each) => each.id === 'tt09')
    // The event carries the item as the store has it, its fields in an order of its own.
    const { year, ...rest } = created as Record<string, unknown>
    feed.stream(0).send(`event: created\nid: 7\ndata: ${JSON.stringify({ year, ...rest })}\n\n`)
    await settle()
    exchanges()
    await items.list()
    expect(exchanges()).toEqual([expect.stringMatching(/^GET \/items "\w+" → 304$/)])
    // Another client's create: this client never saw that list, so it asks for it whole.
    api.add(movie('tt10'))
    feed.stream(0).send(`event: created\nid: 8\ndata: ${JSON.stringify(movie('tt10'))}\n\n`)
    await settle()
    await items.list()
    expect(exchanges()).toEqual(['GET /items - → 200'])
    // A deletion the kept list already shows leaves it kept; one it does not, drops it.
    await items.remove('tt10')
    feed.stream(0).send(`event: deleted\nid: 9\ndata: ${JSON.stringify(movie('tt10'))}\n\n`)
    await settle()
    feed.stream(0).send(`event: updated\nid: 10\ndata: ${JSON.stringify(created)}\n\n`)
    await settle()
    exchanges()
    await items.list()
    expect(exchanges()).toEqual([expect.stringMatching(/^GET \/items "\w+" → 304$/)])
    api.items.splice(0, 1)
    feed.stream(0).send(`event: deleted\nid: 11\ndata: ${JSON.stringify(movie('tt01'))}\n\n`)
    await settle()
    await items.list()
    expect(exchanges()).toEqual(['GET /items - → 200'])
    subscription.close()
  })
})

describe('a kept answer made stale', () => {
  it('by a write through the client: every query, and the item written', async () => {
    const { items, exchanges } = service()
    await items.list({ genre: 'Drama' })
    await items.get('tt01')
    await items.get('tt02')
    await items.update('tt01', { genre: 'Crime' })
    exchanges()
    await items.list({ genre: 'Drama' })
    await items.get('tt01')
    await items.get('tt02')
    expect(exchanges().map((line) => line.split(' ').slice(1).join(' '))).toEqual([
      '/items?genre=Drama - → 200',
      '/items/tt01 - → 200',
      expect.stringMatching(/^\/items\/tt02 "\w+" → 304$/),
    ])
  })

  it('by a create, a remove, and an update that changes the id', async () => {
    const { items, exchanges } = service()
    for (const id of ['tt01', 'tt02', 'tt03']) await items.get(id)
    await items.list({ genre: 'Drama', limit: 2 })
    await items.create(movie('tt09'))
    await items.remove('tt02')
    await items.update('tt01', { id: 'tt10' })
    exchanges()
    for (const id of ['tt01', 'tt02', 'tt03']) await items.get(id).catch(() => {})
    await items.list({ genre: 'Drama', limit: 2 })
    expect(exchanges().map((line) => line.split(' ').slice(1).join(' '))).toEqual([
      '/items/tt01 - → 404',
      '/items/tt02 - → 404',
      expect.stringMatching(/^\/items\/tt03 "\w+" → 304$/),
      '/items?genre=Drama&limit=2 - → 200',
    ])
  })

  it('by a write that fails: it may have changed the items all the same', async () => {
    const { api, items, exchanges } = service()
    await items.list()
    const serve = api.fetch
    const failing = createItemsClient('http://api.test', {
      fetch: async (url, init) =>
        init.method === 'GET' ? serve(url, init) : Promise.reject(new TypeError('fetch failed')),
    })
    await failing.list()
    await expect(failing.remove('tt01')).rejects.toThrow('fetch failed')
    exchanges()
    await failing.list()
    expect(exchanges()).toEqual(['GET /items - → 200'])
  })

  it('by a change the subscription reports: the lists, and that item', async () => {
    const feed = new FeedStandIn()
    const { api, exchanges } = service()
    const items = createItemsClient('http://api.test', {
      fetch: (url, init) =>
        url.endsWith('/events') ? feed.fetch(url, init) : api.fetch(url, init),
    })
    await items.list()
    await items.get('tt01')
    await items.get('tt02')
    const seen: string[] = []
    const subscription = items.subscribe((event) => seen.push(event.type))
    await settle()
    feed.stream(0).send(`event: updated\nid: 7\ndata: ${JSON.stringify(item('tt01'))}\n\n`)
    await settle()
    exchanges()
    await items.list()
    await items.get('tt01')
    await items.get('tt02')
    expect(seen).toEqual(['updated'])
    expect(exchanges().map((line) => line.split(' ').slice(1, 3).join(' '))).toEqual([
      '/items -',
      '/items/tt01 -',
      expect.stringMatching(/^\/items\/tt02 "\w+"$/),
    ])
    // A reload says changes were missed: nothing kept can be trusted to be current.
    feed.stream(0).send('event: reload\nid: 8\ndata: {"reason":"restarted"}\n\n')
    await settle()
    exchanges()
    await items.get('tt02')
    expect(exchanges()).toEqual(['GET /items/tt02 - → 200'])
    subscription.close()
  })
})
