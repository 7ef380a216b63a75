import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../../test/support/test-app.js'

describe('PUT /items/:id', () => {
  const api = useTestApp()

  it('sets the fields in the body, keeps the absent ones and answers the full list', async () => {
    const [first, second] = await api().seed(movies.shawshank, movies.godfather)
    const response = await api().put(movies.shawshank.id, { genre: 'Prison drama' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([{ ...first, genre: 'Prison drama' }, second])
  })

  it('adds a field the item did not have and keeps its place in the list', async () => {
    const [first, second] = await api().seed(movies.shawshank, movies.godfather)
    await api().put(movies.shawshank.id, { year: 1994 })
    expect(await api().list()).toEqual([{ ...first, year: 1994 }, second])
  })

  it('replaces a nested field as a whole', async () => {
    await api().seed({ ...movies.shawshank, director: { name: 'F. Darabont', born: 1959 } })
    await api().put(movies.shawshank.id, { director: { name: 'Frank Darabont' } })
    const item = await (await api().get(movies.shawshank.id)).json()
    expect(item.director).toEqual({ name: 'Frank Darabont' })
  })

  it('changes the id, so that the item moves to the new path and keeps its _id', async () => {
    const [first] = await api().seed(movies.shawshank)
    const response = await api().put(movies.shawshank.id, { id: 'tt0000001' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([{ ...first, id: 'tt0000001' }])
    expect((await api().get(movies.shawshank.id)).status).toBe(404)
    expect(await (await api().get('tt0000001')).json()).toEqual({ ...first, id: 'tt0000001' })
  })

  it('accepts the item’s own id in the body', async () => {
    const [first] = await api().seed(movies.shawshank)
    const response = await api().put(movies.shawshank.id, { id: movies.shawshank.id, genre: 'X' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([{ ...first, genre: 'X' }])
  })

  it('answers 409 when the new id belongs to another item, and changes nothing', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    const body = await api().expectRefused(
      () => api().put(movies.shawshank.id, { id: movies.godfather.id, name: 'Clash' }),
      409,
    )
    expect(body.error).toContain(movies.godfather.id)
  })

  it('answers 404 for an unknown id and changes nothing', async () => {
    await api().seed(movies.shawshank)
    const body = await api().expectRefused(() => api().put('tt9999999', { name: 'Nobody' }), 404)
    expect(body).toEqual({ error: "item 'tt9999999' not found" })
  })

  it('answers 400 for an empty body and changes nothing', async () => {
    await api().seed(movies.shawshank)
    const body = await api().expectRefused(() => api().put(movies.shawshank.id, {}), 400)
    expect(body).toHaveProperty('issues')
  })
})
