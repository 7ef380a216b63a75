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

  it.each([
    ['a zero-width space', 'ca\u200bfé'],
    ['a bidi override', 'tt\u202e1234'],
    ['a right-to-left mark', '\u200fAmélie'],
    ['a byte order mark', '\ufeffAmélie'],
  ])('refuses an id with %s: it would look like another', async (_, id) => {
    const response = await api().post({ id, name: 'Lookalike', genre: 'Drama' })
    expect(response.status).toBe(400)
    expect(JSON.stringify(await response.json())).toContain('bidi controls or zero-width')
    expect(await api().list()).toEqual([])
  })

  it('refuses an id not in NFC, naming NFC: café is one item, not two that look alike', async () => {
    const nfd = 'cafe\u0301'
    const refused = await api().post({ id: nfd, name: 'Café', genre: 'Drama' })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toContain('NFC')
    expect((await api().post({ id: 'caf\u00e9', name: 'Café', genre: 'Drama' })).status).toBe(201)
    await api().post({ id: 'tt1', name: 'Other', genre: 'Drama' })
    const renamed = await api().put('tt1', { id: nfd })
    expect(renamed.status).toBe(400)
    expect((await api().get('tt1')).status).toBe(200)
  })
})
