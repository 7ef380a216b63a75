import { describe, expect, it } from 'vitest'
import type { Item } from '../src/store/item-store.js'
import { targets, useRunning } from './support/targets.js'

const json = { 'content-type': 'application/json' }
const tagOf = (response: Response) => response.headers.get('etag') ?? ''
const nextOf = (response: Response) =>
  response.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1]
const names = (items: Item[]) => items.map((item) => item.name)

describe.each(targets)('conditional and queried reads on $name', (target) => {
  const service = useRunning(target, {})
  const call = (route: string, init: RequestInit = {}) => service().request(route, init)
  const post = (item: Record<string, unknown>) =>
    call('/items', { method: 'POST', headers: json, body: JSON.stringify(item) })
  const put = (id: string, fields: unknown, headers: Record<string, string> = {}) =>
    call(`/items/${id}`, {
      method: 'PUT',
      headers: { ...json, ...headers },
      body: JSON.stringify(fields),
    })

  it('sends an ETag for the list and an item, and 304 without a body while it holds', async () => {
    await post({ id: 'etag-1', name: 'Heat', genre: 'Crime' })
    for (const route of ['/items', '/items/etag-1']) {
      const first = await call(route)
      expect(tagOf(first)).toMatch(/^"[!#-~]+"$/)
      const again = await call(route, { headers: { 'if-none-match': tagOf(first) } })
      expect(again.status, route).toBe(304)
      expect(await again.text()).toBe('')
      expect(tagOf(again)).toBe(tagOf(first))
    }
    const list = tagOf(await call('/items'))
    await put('etag-1', { year: 1995 })
    const changed = await call('/items/etag-1', { headers: { 'if-none-match': list } })
    expect(changed.status).toBe(200)
    expect((await call('/items', { headers: { 'if-none-match': list } })).status).toBe(200)
  })

  it('answers a large list read again and again with its bytes as the last write left them', async () => {
    for (let n = 0; n < 80; n++) {
      await post({
        id: `large-${n}`,
        name: `A title long enough to fill the list, ${n}`,
        genre: 'Big',
      })
    }
    /** Three reads in a row, which must agree; their text. */
    const readThrice = async () => {
      const texts: string[] = []
      for (let i = 0; i < 3; i++) {
        texts.push(await (await call('/items')).text())
      }
      expect(texts[1]).toBe(texts[0])
      expect(texts[2]).toBe(texts[0])
      return JSON.parse(texts[0] as string) as Item[]
    }
    const before = await readThrice()
    expect(JSON.stringify(before).length).toBeGreaterThan(8 * 1024)
    expect((await put('large-3', { year: 2001 })).status).toBe(200)
    const updated = await readThrice()
    expect(updated.find((item) => item.id === 'large-3')).toMatchObject({ year: 2001 })
    expect(updated).toHaveLength(before.length)
    expect((await call('/items/large-4', { method: 'DELETE' })).status).toBe(200)
    const deleted = await readThrice()
    expect(deleted.map((item) => item.id)).not.toContain('large-4')
    expect(deleted).toHaveLength(before.length - 1)
  })

  it('answers creates sent at once each with a whole list, whole JSON, that holds it', async () => {
    const ids = Array.from({ length: 40 }, (_, n) => `at-once-${n}`)
    const answers = await Promise.all(
      ids.map((id) => post({ id, name: `Sent at once with others, ${id}`, genre: 'Crowd' })),
    )
    const lists = await Promise.all(
      answers.map(async (answer) => {
        expect(answer.status).toBe(201)
        return JSON.parse(await answer.text()) as Item[]
      }),
    )
    const mine = (list: Item[]) => list.filter((item) => item.genre === 'Crowd')
    lists.forEach((list, n) => {
      expect(mine(list).map((item) => item.id)).toContain(ids[n])
    })
    // Writes that land together may answer the same list (Node commits them as one batch).
    expect(Math.max(...lists.map((list) => mine(list).length))).toBe(ids.length)
    const all = JSON.parse(await (await call('/items')).text()) as Item[]
    expect(mine(all).map((item) => item.id)).toEqual(expect.arrayContaining(ids))
  })

  it('refuses a write under a stale If-Match with 412, changing nothing', async () => {
    await post({ id: 'match-1', name: 'Ronin', genre: 'Crime' })
    const stale = tagOf(await call('/items/match-1'))
    expect((await put('match-1', { year: 1998 }, { 'if-match': stale })).status).toBe(200)
    const before = await (await call('/items')).text()
    for (const write of [
      () => put('match-1', { year: 1999 }, { 'if-match': stale }),
      () => call('/items/match-1', { method: 'DELETE', headers: { 'if-match': stale } }),
    ]) {
      const response = await write()
      expect(response.status).toBe(412)
      expect(await response.json()).toEqual({ error: "item 'match-1' does not match If-Match" })
    }
    expect(await (await call('/items')).text()).toBe(before)
    expect(await (await call('/items/match-1')).json()).toMatchObject({ year: 1998 })
  })

  it('filters by ?genre=, sorts, and pages with limit and a Link to the next page', async () => {
    for (const [n, name] of ['E', 'B', 'D', 'A', 'C'].entries()) {
      await post({ id: `q${n}`, name, genre: 'Queried' })
    }
    await post({ id: 'q-other', name: 'AA', genre: 'Other' })
    const filtered = await call('/items?genre=Queried')
    expect(names(await filtered.json())).toEqual(['E', 'B', 'D', 'A', 'C'])
    expect(names(await (await call('/items?genre=Queried&sort=-name')).json())).toEqual([
      'E',
      'D',
      'C',
      'B',
      'A',
    ])

    const seen: string[] = []
    const urls: string[] = []
    for (let url: string | undefined = '/items?genre=Queried&sort=name&limit=2'; url; ) {
      urls.push(url)
      const page = await call(url)
      expect(page.status, url).toBe(200)
      seen.push(...names(await page.json()))
      url = nextOf(page)
    }
    expect(seen).toEqual(['A', 'B', 'C', 'D', 'E'])
    expect(urls).toHaveLength(3)
    expect(urls[1]).toMatch(/^\/items\?genre=Queried&sort=name&limit=2&cursor=[\w-]+$/)
    const refused = await call('/items?limit=0')
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ issues: [{ path: 'limit' }] })
  })

  // Compression is where the runtimes differ by design: Node compresses the list itself (once
  // per change, tagged per coding); on Workers the platform compresses what the Worker sends, so
  // the app sends identity. Miniflare plays the platform's part: it compresses what the client
  // accepts and reports it in MF-Content-Encoding (undici has already decoded the body).
  it.runIf(target.name === 'node')(
    'compresses the list itself for a client that takes br',
    async () => {
      const plain = await call('/items', { headers: { 'accept-encoding': 'identity' } })
      const compressed = await call('/items', { headers: { 'accept-encoding': 'br' } })
      expect(compressed.headers.get('content-encoding')).toBe('br')
      expect(tagOf(compressed)).toBe(`${tagOf(plain).slice(0, -1)}-br"`)
      expect(await compressed.json()).toEqual(await plain.json())
    },
  )

  it.runIf(target.name === 'worker')(
    'sends the list as it is, for the platform to compress',
    async () => {
      const plain = await call('/items', { headers: { 'accept-encoding': 'identity' } })
      expect(plain.headers.get('mf-content-encoding')).toBeNull()
      const compressed = await call('/items', { headers: { 'accept-encoding': 'br' } })
      expect(compressed.headers.get('mf-content-encoding')).toBe('br')
      expect(tagOf(compressed)).toBe(tagOf(plain))
      expect(await compressed.json()).toEqual(await plain.json())
    },
  )
})
