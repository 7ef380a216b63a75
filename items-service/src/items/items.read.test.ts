import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../../test/support/test-app.js'

describe('GET /items', () => {
  const api = useTestApp()

  it('answers an empty list when there are no items', async () => {
    const response = await api().request('/items')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await response.json()).toEqual([])
  })

  it('answers every item with _id, id, name and genre, in insertion order', async () => {
    // Inserted out of id order, so that a list sorted by id would differ.
    await api().seed(movies.shawshank, movies.darkKnight, movies.godfather)
    const list = await api().list()
    expect(list.map((item) => item.id)).toEqual(['tt0111161', 'tt0468569', 'tt0068646'])
    for (const item of list) {
      expect(Object.keys(item)).toEqual(['_id', 'id', 'name', 'genre'])
      expect(item._id).toMatch(/^[0-9a-f]{24}$/)
    }
    expect(new Set(list.map((item) => item._id)).size).toBe(3)
  })
})

describe('GET /items/:id', () => {
  const api = useTestApp()

  it('answers the matching item, including its _id', async () => {
    const [, stored] = await api().seed(movies.shawshank, movies.godfather)
    const response = await api().get(movies.godfather.id)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(stored)
    expect(stored?._id).toMatch(/^[0-9a-f]{24}$/)
  })

  it('answers 404 with the id for an unknown id', async () => {
    await api().seed(movies.shawshank)
    const response = await api().get('tt9999999')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: "item 'tt9999999' not found" })
  })

  it('matches the id exactly, not by prefix or case', async () => {
    await api().seed(movies.shawshank)
    for (const near of ['tt011116', 'TT0111161', 'tt0111161 ', 'tt01111611']) {
      expect((await api().get(near)).status, near).toBe(404)
    }
  })

  it('answers 400 naming the id for a path whose percent-encoding is not UTF-8', async () => {
    // A broken escape, a lone surrogate's bytes, a byte no UTF-8 has.
    for (const path of ['/items/%E0%A4%A', '/items/%ED%A0%80', '/items/tt%FF']) {
      const response = await api().request(path)
      expect(response.status, path).toBe(400)
      expect(await response.json()).toEqual({
        error: 'invalid path parameter',
        issues: [{ path: 'id', message: 'is not percent-encoded UTF-8' }],
      })
    }
  })

  it('reads an item whose id is the text of a broken escape, sent encoded', async () => {
    await api().seed({ ...movies.shawshank, id: '%ED%A0%80' })
    const response = await api().get('%ED%A0%80')
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ id: '%ED%A0%80' })
  })
})
