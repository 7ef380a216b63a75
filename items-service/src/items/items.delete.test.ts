import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../../test/support/test-app.js'

describe('DELETE /items/:id', () => {
  const api = useTestApp()

  it('removes the item and answers the remaining list in order', async () => {
    const [first, , third] = await api().seed(movies.shawshank, movies.godfather, movies.darkKnight)
    const response = await api().delete(movies.godfather.id)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([first, third])
    expect((await api().get(movies.godfather.id)).status).toBe(404)
  })

  it('answers an empty list after the last item is deleted', async () => {
    await api().seed(movies.shawshank)
    expect(await (await api().delete(movies.shawshank.id)).json()).toEqual([])
  })

  it('answers 404 for an unknown id and changes nothing', async () => {
    await api().seed(movies.shawshank)
    const body = await api().expectRefused(() => api().delete('tt9999999'), 404)
    expect(body).toEqual({ error: "item 'tt9999999' not found" })
  })

  it('answers 404 the second time the same id is deleted', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    expect((await api().delete(movies.shawshank.id)).status).toBe(200)
    await api().expectRefused(() => api().delete(movies.shawshank.id), 404)
  })

  it('lets exactly one of two simultaneous deletes of an item succeed', async () => {
    await api().seed(movies.shawshank, movies.godfather)
    const statuses = await Promise.all([
      api().delete(movies.shawshank.id),
      api().delete(movies.shawshank.id),
    ]).then((responses) => responses.map((response) => response.status))
    expect(statuses.sort()).toEqual([200, 404])
  })
})
