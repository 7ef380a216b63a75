import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../../test/support/test-app.js'

describe('a bounded collection (ITEMS_MAX_COUNT, ITEMS_MAX_BYTES)', () => {
  const api = useTestApp({ bounds: { maxItems: 3, maxBytes: 1_000 } })
  const create = (id: string, extra: Record<string, unknown> = {}) =>
    api().post({ ...movies.shawshank, id, ...extra })

  it('refuses a create past the most items with 507, naming the setting, and changes nothing', async () => {
    for (const id of ['tt1', 'tt2', 'tt3']) expect((await create(id)).status).toBe(201)
    const before = await (await api().request('/items')).text()
    const response = await api().expectRefused(() => create('tt4'), 507)
    expect(response).toEqual({
      error: 'the collection holds 3 items, the most ITEMS_MAX_COUNT allows: delete some first',
    })
    expect(await (await api().request('/items')).text()).toBe(before)
    // Room made, room taken.
    expect((await api().delete('tt1')).status).toBe(200)
    expect((await create('tt4')).status).toBe(201)
  })

  it('refuses a create or an update that would take the list past the most bytes', async () => {
    expect((await create('tt1')).status).toBe(201)
    const big = { note: 'x'.repeat(900) }
    const refused = await api().expectRefused(() => create('tt2', big), 507)
    expect(refused).toEqual({
      error:
        'the collection would hold more than 1000 bytes, the most ITEMS_MAX_BYTES allows: delete or shorten items first',
    })
    await api().expectRefused(() => api().put('tt1', big), 507)
    expect(await (await api().request('/items')).json()).toEqual([
      expect.objectContaining({ id: 'tt1', name: movies.shawshank.name }),
    ])
    expect((await api().put('tt1', { genre: 'Prison drama' })).status).toBe(200)
  })

  it('counts the creates of this process in flight, so that many at once stay within bounds', async () => {
    const responses = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => create(`tt-${id}`)))
    expect(responses.map((response) => response.status).sort()).toEqual([201, 201, 201, 507, 507])
    expect(await (await api().request('/items')).json()).toHaveLength(3)
    // Every refusal counts what takes the room, stored or being written: never 0 of 3.
    for (const response of responses.filter((response) => response.status === 507)) {
      const { error } = await response.json()
      expect(error).toMatch(/^the collection holds 3 items( \([1-3] of them being written\))?, /)
    }
  })
})
