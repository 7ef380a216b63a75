import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../../test/support/test-app.js'

const tagOf = (response: Response) => response.headers.get('etag') ?? ''

describe('conditional reads: GET and HEAD /items and /items/:id', () => {
  const api = useTestApp()

  it('send a strong ETag that stays while nothing changes', async () => {
    await api().seed(movies.shawshank)
    for (const path of ['/items', '/items/tt0111161']) {
      const [first, again] = [await api().request(path), await api().request(path)]
      expect(tagOf(first)).toMatch(/^"[!#-~]+"$/)
      expect(tagOf(again)).toBe(tagOf(first))
      const head = await api().request(path, { method: 'HEAD' })
      expect(tagOf(head)).toBe(tagOf(first))
    }
  })

  it('answer 304 without a body to the current tag, to * and to a list holding it', async () => {
    await api().seed(movies.shawshank)
    for (const path of ['/items', '/items/tt0111161']) {
      const etag = tagOf(await api().request(path))
      for (const header of [etag, '*', `"old", ${etag}`, `W/${etag}`]) {
        for (const method of ['GET', 'HEAD']) {
          const response = await api().request(path, {
            method,
            headers: {
              'if-none-match': header,
              origin: 'https://app.example',
              'x-request-id': 'r1',
            },
          })
          expect(response.status, `${method} ${path} ${header}`).toBe(304)
          expect(await response.text()).toBe('')
          expect(tagOf(response)).toBe(etag)
          expect(response.headers.get('x-request-id')).toBe('r1')
          expect(response.headers.get('access-control-expose-headers')).toContain('etag')
        }
      }
    }
  })

  it('answer 200 again once the list or the item changed', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    const list = tagOf(await api().request('/items'))
    const [one, other] = [await api().get('tt0111161'), await api().get('tt0068646')]
    expect((await api().put('tt0111161', { year: 1994 })).status).toBe(200)
    const ifNoneMatch = (tag: string) => ({ headers: { 'if-none-match': tag } })
    const listAgain = await api().request('/items', ifNoneMatch(list))
    expect(listAgain.status).toBe(200)
    expect(tagOf(listAgain)).not.toBe(list)
    const changed = await api().request('/items/tt0111161', ifNoneMatch(tagOf(one)))
    expect(changed.status).toBe(200)
    expect(await changed.json()).toMatchObject({ year: 1994 })
    expect((await api().request('/items/tt0068646', ifNoneMatch(tagOf(other)))).status).toBe(304)
  })

  it('give every item its own tag', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    const tags = [tagOf(await api().get('tt0111161')), tagOf(await api().get('tt0068646'))]
    expect(new Set(tags).size).toBe(2)
  })
})

describe('writes answer the new list with its ETag', () => {
  const api = useTestApp()

  it('POST, PUT and DELETE answer the tag a GET /items then answers', async () => {
    await api().seed(movies.shawshank)
    for (const write of [
      () => api().post(movies.godfather),
      () => api().put('tt0068646', { genre: 'Crime' }),
      () => api().delete('tt0111161'),
    ]) {
      const response = await write()
      expect(response.status).toBeLessThan(300)
      expect(tagOf(response)).toBe(tagOf(await api().request('/items')))
    }
  })
})

describe('If-Match on PUT and DELETE /items/:id', () => {
  const api = useTestApp()

  it('lets a write with the current tag, or *, go ahead', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    const etag = tagOf(await api().get('tt0111161'))
    expect((await api().put('tt0111161', { year: 1994 }, { 'if-match': etag })).status).toBe(200)
    expect((await api().delete('tt0068646', { 'if-match': '*' })).status).toBe(200)
  })

  it('refuses a stale tag with 412 and changes nothing', async () => {
    await api().seed(movies.shawshank)
    const stale = tagOf(await api().get('tt0111161'))
    await api().put('tt0111161', { year: 1994 })
    for (const write of [
      () => api().put('tt0111161', { year: 1995 }, { 'if-match': stale }),
      () => api().delete('tt0111161', { 'if-match': stale }),
      () => api().put('tt0111161', { year: 1995 }, { 'if-match': `W/${stale}` }),
    ]) {
      const body = await api().expectRefused(write, 412)
      expect(body).toEqual({ error: "item 'tt0111161' does not match If-Match" })
    }
    expect(await (await api().get('tt0111161')).json()).toMatchObject({ year: 1994 })
  })

  it('takes an If-Match that lists no tag as no condition, as the Workers runtime must', async () => {
    await api().seed(movies.shawshank)
    for (const [header, year] of [
      ['', 1994],
      [' , ,', 1995],
    ] as const) {
      expect((await api().put('tt0111161', { year }, { 'if-match': header })).status).toBe(200)
    }
    expect(await (await api().get('tt0111161')).json()).toMatchObject({ year: 1995 })
  })

  it('answers 412 to If-Match on an item that does not exist, * included', async () => {
    await api().seed(movies.shawshank)
    await api().expectRefused(() => api().delete('tt9999999', { 'if-match': '*' }), 412)
    await api().expectRefused(() => api().put('tt9999999', { a: 1 }, { 'if-match': '"x"' }), 412)
  })

  it('lets exactly one of two writes holding the same tag through', async () => {
    await api().seed(movies.shawshank)
    const etag = tagOf(await api().get('tt0111161'))
    const statuses = await Promise.all([
      api().put('tt0111161', { year: 1 }, { 'if-match': etag }),
      api().put('tt0111161', { year: 2 }, { 'if-match': etag }),
      api().delete('tt0111161', { 'if-match': etag }),
    ]).then((responses) => responses.map((response) => response.status))
    expect(statuses.sort()).toEqual([200, 412, 412])
  })
})
