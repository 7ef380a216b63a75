import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../test/support/test-app.js'

const ids = [
  'Amélie 2001',
  '千と千尋の神隠し',
  'a/b',
  '🎬 movie',
  '100% Wolf',
  'what? #1 & more',
  'a+b=c',
  '...',
  '.hidden',
  ' leading and trailing ',
]

describe('ids with spaces, Unicode and URL characters', () => {
  const api = useTestApp()

  it.each(ids)('round-trips %j through the path for GET, PUT and DELETE', async (id) => {
    const item = { id, name: 'Some film', genre: 'Drama' }
    const created = await api().post(item)
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(`/items/${encodeURIComponent(id)}`)

    const read = await api().get(id)
    expect(read.status).toBe(200)
    expect(await read.json()).toMatchObject(item)

    const updated = await api().put(id, { genre: 'Comedy' })
    expect(updated.status).toBe(200)
    expect(await updated.json()).toEqual([{ ...item, _id: expect.any(String), genre: 'Comedy' }])

    const deleted = await api().delete(id)
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toEqual([])
  })

  it.each(['.', '..'])('refuses the id %j, which no URL path can address', async (id) => {
    await api().expectRefused(() => api().post({ id, name: 'Dots', genre: 'Drama' }), 400)
  })

  it('names the id in the 404 as it was given', async () => {
    const response = await api().get('千と千尋')
    expect(await response.json()).toEqual({ error: "item '千と千尋' not found" })
  })

  it('renames an item to a Unicode id and finds it there', async () => {
    await api().post({ id: 'tt0245429', name: 'Spirited Away', genre: 'Animation' })
    await api().put('tt0245429', { id: '千と千尋' })
    expect((await api().get('千と千尋')).status).toBe(200)
  })
})
