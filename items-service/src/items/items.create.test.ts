import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../../test/support/test-app.js'

const objectId = /^[0-9a-f]{24}$/

describe('POST /items', () => {
  const api = useTestApp()

  it('answers 201 with the full list, the new item last, and its Location', async () => {
    await api().seed(movies.shawshank)
    const response = await api().post(movies.godfather)
    expect(response.status).toBe(201)
    expect(response.headers.get('location')).toBe('/items/tt0068646')
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const list = await response.json()
    expect(list).toEqual([
      { _id: expect.stringMatching(objectId), ...movies.shawshank },
      { _id: expect.stringMatching(objectId), ...movies.godfather },
    ])
  })

  it('inserts exactly one record per call', async () => {
    await api().post(movies.shawshank)
    expect(await api().list()).toHaveLength(1)
  })

  it('stores other top-level fields as given', async () => {
    const item = {
      ...movies.shawshank,
      year: 1994,
      rating: 9.3,
      watched: false,
      note: null,
      cast: ['Tim Robbins', 'Morgan Freeman'],
      director: { name: 'Frank Darabont', born: 1959 },
    }
    const [stored] = await api().seed(item)
    expect(stored).toEqual({ _id: expect.stringMatching(objectId), ...item })
  })

  it('answers 409 for an id that exists and changes nothing', async () => {
    await api().seed(movies.shawshank)
    const body = await api().expectRefused(
      () => api().post({ ...movies.shawshank, name: 'Another' }),
      409,
    )
    expect(body.error).toContain('tt0111161')
  })

  it('accepts the same id again once the first item was deleted', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    await api().delete(movies.shawshank.id)
    const response = await api().post(movies.shawshank)
    expect(response.status).toBe(201)
    expect((await api().list()).map((item) => item.id)).toEqual(['tt0068646', 'tt0111161'])
  })

  it('accepts application/json with parameters or in any case', async () => {
    for (const [contentType, item] of [
      ['application/json; charset=utf-8', movies.shawshank],
      ['Application/JSON', movies.godfather],
    ] as const) {
      const response = await api().post(item, { 'content-type': contentType })
      expect(response.status, contentType).toBe(201)
    }
    expect(await api().list()).toHaveLength(2)
  })
})
