import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import { describe, expect, it } from 'vitest'
import { failingStore } from '../../test/support/failing-store.js'
import { movies, type TestApp, useTestApp } from '../../test/support/test-app.js'
import { createApp } from '../app.js'
import type { Item } from '../store/item-store.js'

const tagOf = (response: Response) => response.headers.get('etag') ?? ''
const nextOf = (response: Response) =>
  response.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1]
const ids = (items: Item[]) => items.map((item) => item.id)

/** Every page of a query, following each page's `Link`, and the URLs it followed. */
async function allPages(app: TestApp, first: string) {
  const items: Item[] = []
  const urls: string[] = []
  for (let url: string | undefined = first; url; ) {
    urls.push(url)
    const response = await app.request(url)
    expect(response.status, url).toBe(200)
    items.push(...((await response.json()) as Item[]))
    url = nextOf(response)
  }
  return { items, urls }
}

const drama = (n: number, name: string) => ({ id: `d${n}`, name, genre: 'Drama' })

describe('GET /items with a query', () => {
  const api = useTestApp()

  it('is exactly the list without one, also with a bare ?', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    const [plain, bare] = [await api().request('/items'), await api().request('/items?')]
    expect(await bare.json()).toEqual(await plain.json())
    expect(tagOf(bare)).toBe(tagOf(plain))
  })

  it('keeps the items whose fields equal every filter, numbers matched by their JSON', async () => {
    await api().seed(
      { ...movies.shawshank, year: 1994 },
      { ...movies.godfather, year: 1972 },
      { ...movies.darkKnight, genre: 'Crime', year: 2008 },
      { id: 'tt0110912', name: 'Pulp Fiction', genre: 'Crime', year: 1994 },
    )
    const query = async (search: string) =>
      ids(await (await api().request(`/items?${search}`)).json())
    expect(await query('genre=Crime')).toEqual(['tt0068646', 'tt0468569', 'tt0110912'])
    expect(await query('year=1994')).toEqual(['tt0111161', 'tt0110912'])
    expect(await query('genre=Crime&year=1994')).toEqual(['tt0110912'])
    expect(await query('genre=crime')).toEqual([])
    expect(await query('name=The+Godfather')).toEqual(['tt0068646'])
  })

  it('sorts by name, id or genre, either way, ties in insertion order', async () => {
    await api().seed(movies.shawshank, movies.godfather, movies.darkKnight, drama(1, 'Alien'))
    const names = async (sort: string) =>
      (await (await api().request(`/items?sort=${sort}`)).json()).map((item: Item) => item.name)
    expect(await names('name')).toEqual([
      'Alien',
      'The Dark Knight',
      'The Godfather',
      'The Shawshank Redemption',
    ])
    expect(await names('-genre')).toEqual([
      'The Shawshank Redemption',
      'Alien',
      'The Godfather',
      'The Dark Knight',
    ])
  })

  it('answers a page at a time, each Link naming the next with the same query', async () => {
    const names = ['E', 'B', 'D', 'A', 'C']
    await api().seed(...names.map((name, n) => drama(n, name)), movies.godfather)
    const response = await api().request('/items?genre=Drama&sort=name&limit=2')
    expect(response.status).toBe(200)
    expect(nextOf(response)).toMatch(/^\/items\?genre=Drama&sort=name&limit=2&cursor=[\w-]+$/)
    const { items, urls } = await allPages(api(), '/items?genre=Drama&sort=name&limit=2')
    expect(items.map((item) => item.name)).toEqual(['A', 'B', 'C', 'D', 'E'])
    expect(urls).toHaveLength(3)
  })

  it('sends no Link when the page ends at the last match', async () => {
    await api().seed(drama(1, 'A'), drama(2, 'B'), movies.godfather)
    const response = await api().request('/items?genre=Drama&limit=2')
    expect(ids(await response.json())).toEqual(['d1', 'd2'])
    expect(response.headers.get('link')).toBeNull()
  })

  it('continues pages exactly when items are created between reads', async () => {
    await api().seed(...['C', 'A', 'E'].map((name, n) => drama(n, name)))
    const first = await api().request('/items?sort=-name&limit=1')
    expect((await first.json())[0].name).toBe('E')
    await api().seed(drama(10, 'F'), drama(11, 'D'), drama(12, 'E'), drama(13, 'B'))
    const { items } = await allPages(api(), nextOf(first) as string)
    // F sorts before the first page's end: it is not shown; the E made later follows the first.
    expect(items.map((item) => `${item.name}${item.id}`)).toEqual([
      'Ed12',
      'Dd11',
      'Cd0',
      'Bd13',
      'Ad1',
    ])
  })

  it('sends a strong tag of the page, and 304 to it while the page stays the same', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    const url = '/items?genre=Crime'
    const first = await api().request(url)
    expect(tagOf(first)).toMatch(/^"[\w-]{43}"$/)
    expect(tagOf(await api().request(url))).toBe(tagOf(first))
    const again = await api().request(url, { headers: { 'if-none-match': tagOf(first) } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(tagOf(again)).toBe(tagOf(first))
    // Another item changing leaves this page's answer, and so its tag, as it was.
    await api().put(movies.shawshank.id, { year: 1994 })
    const other = await api().request(url, { headers: { 'if-none-match': tagOf(first) } })
    expect(other.status).toBe(304)
    await api().put(movies.godfather.id, { year: 1972 })
    const changed = await api().request(url, { headers: { 'if-none-match': tagOf(first) } })
    expect(changed.status).toBe(200)
    expect(tagOf(changed)).not.toBe(tagOf(first))
  })

  it('changes the tag when a next page appears, so that a 304 never hides its Link', async () => {
    await api().seed(drama(1, 'A'))
    const url = '/items?genre=Drama&limit=1'
    const alone = await api().request(url)
    expect(alone.headers.get('link')).toBeNull()
    await api().seed(drama(2, 'B'))
    const followed = await api().request(url, { headers: { 'if-none-match': tagOf(alone) } })
    expect(followed.status).toBe(200)
    expect(nextOf(followed)).toBeDefined()
  })

  it('is not compressed, whatever the client accepts', async () => {
    await api().seed(...Array.from({ length: 50 }, (_, n) => drama(n, `Movie ${n}`)))
    const response = await api().request('/items?genre=Drama', {
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(await response.json()).toHaveLength(50)
  })

  it('answers 503 when the database does not answer', async () => {
    const app = createApp({
      store: failingStore(() => new StoreUnavailableError('database unavailable')),
      log: () => {},
    })
    const response = await app.request('/items?genre=Crime')
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ error: 'database unavailable' })
  })
})

describe('GET /items with a refused query', () => {
  const api = useTestApp()

  it.each([
    ['sort=year', 'sort', 'must be one of id, -id, name, -name, genre, -genre'],
    ['limit=0', 'limit', 'must be an integer from 1 to 1000'],
    ['limit=1001', 'limit', 'must be an integer from 1 to 1000'],
    ['limit=abc', 'limit', 'must be an integer from 1 to 1000'],
    ['limit=1.5', 'limit', 'must be an integer from 1 to 1000'],
    ['limit=', 'limit', 'must be an integer from 1 to 1000'],
    ['genre=Crime&genre=Drama', 'genre', 'must be given at most once'],
    ['%24where=1', '$where', 'field names must not start with $'],
    ['crew.name=Scott', 'crew.name', 'field names must not contain .'],
    ['__proto__=x', '__proto__', "'__proto__' is a reserved field name"],
    ['cursor=nonsense', 'cursor', "is not a cursor of this service: take it from a page's Link"],
    ['a%00b=1', 'a\u0000b', 'field names must not contain control characters'],
    ['a%0Ab=1', 'a\nb', 'field names must not contain control characters'],
    [
      'filters%5Bgenre%5D=Drama',
      'filters[genre]',
      "filters are one parameter per field: send 'genre=…', not 'filters[genre]=…'",
    ],
  ])('?%s answers 400 naming the parameter, and changes nothing', async (search, path, message) => {
    await api().seed(movies.shawshank)
    const body = await api().expectRefused(() => api().request(`/items?${search}`), 400)
    expect(body).toEqual({ error: 'invalid query parameter', issues: [{ path, message }] })
  })

  it('refuses a cursor made for another sort', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    const next = nextOf(await api().request('/items?sort=name&limit=1')) as string
    const cursor = new URL(next, 'http://localhost').searchParams.get('cursor')
    const response = await api().request(`/items?sort=-name&limit=1&cursor=${cursor}`)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: 'invalid query parameter',
      issues: [{ path: 'cursor', message: expect.stringContaining('another sort') }],
    })
  })
})
