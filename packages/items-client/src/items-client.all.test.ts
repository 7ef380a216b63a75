import { describe, expect, it } from 'vitest'
import { ItemsStandIn, movie } from '../test/support/items-stand-in.js'
import { createItemsClient } from './items-client.js'

function service(count: number) {
  const api = new ItemsStandIn()
  for (let n = 1; n <= count; n++) api.add(movie(`tt${String(n).padStart(2, '0')}`))
  api.add(movie('tt99', { genre: 'Comedy' }))
  const items = createItemsClient('http://api.test', { fetch: api.fetch })
  const urls = () => api.requests.map(({ url }) => url.replace('http://api.test', ''))
  return { api, items, urls }
}

/** Every item `all` gives, by id. */
async function ids(iterable: AsyncIterable<{ id: string }>): Promise<string[]> {
  const seen: string[] = []
  for await (const item of iterable) seen.push(item.id)
  return seen
}

describe('all', () => {
  it('gives every item of a query, page after page, following each page’s next', async () => {
    const { items, urls } = service(5)
    expect(await ids(items.all({ genre: 'Drama', limit: 2 }))).toEqual([
      'tt01',
      'tt02',
      'tt03',
      'tt04',
      'tt05',
    ])
    expect(urls()).toEqual([
      '/items?genre=Drama&limit=2',
      '/items?genre=Drama&limit=2&cursor=2',
      '/items?genre=Drama&limit=2&cursor=4',
    ])
  })

  it('asks pages of 100 when the query names no limit, and starts at its cursor', async () => {
    const { items, urls } = service(3)
    expect(await ids(items.all())).toEqual(['tt01', 'tt02', 'tt03', 'tt99'])
    expect(await ids(items.all({ genre: 'Drama', cursor: '1' }))).toEqual(['tt02', 'tt03'])
    expect(urls()).toEqual(['/items?limit=100', '/items?genre=Drama&cursor=1&limit=100'])
  })

  it('asks nothing before it is iterated, and no page after the loop stops', async () => {
    const { items, urls } = service(5)
    const drama = items.all({ genre: 'Drama', limit: 2 })
    expect(urls()).toEqual([])
    for await (const item of drama) if (item.id === 'tt02') break
    expect(urls()).toEqual(['/items?genre=Drama&limit=2'])
  })

  it('rejects the loop with a later page’s error, after the items before it', async () => {
    const { api, items } = service(3)
    const seen: string[] = []
    const failing = createItemsClient('http://api.test', {
      fetch: async (url, init) =>
        url.includes('cursor=')
          ? Response.json({ error: 'database unavailable' }, { status: 503 })
          : api.fetch(url, init),
    })
    const loop = async () => {
      for await (const item of failing.all({ limit: 2 })) seen.push(item.id)
    }
    await expect(loop()).rejects.toMatchObject({ status: 503 })
    expect(seen).toEqual(['tt01', 'tt02'])
    expect(await ids(items.all({ limit: 2 }))).toHaveLength(4)
  })

  it('rejects with the signal’s reason once aborted, asking no further page', async () => {
    const { items, urls } = service(5)
    const controller = new AbortController()
    const reason = new Error('the user left')
    const loop = async () => {
      for await (const item of items.all({ limit: 2 }, { signal: controller.signal })) {
        if (item.id === 'tt02') controller.abort(reason)
      }
    }
    await expect(loop()).rejects.toBe(reason)
    expect(urls()).toEqual(['/items?limit=2'])
  })
})
