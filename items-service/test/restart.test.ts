import { describe, expect, it } from 'vitest'
import type { Item } from '../src/store/item-store.js'
import { type RunningService, targets } from './support/targets.js'

const json = { 'content-type': 'application/json' }
const movie = (n: number) => ({ id: `tt${n}`, name: `Movie ${n}`, genre: 'Drama' })

/** Sends a write or a read that must succeed, and answers the list or item it answered. */
async function send(service: RunningService, method: string, route: string, body?: unknown) {
  const response = await service.request(route, {
    method,
    headers: json,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(response.ok, `${method} ${route}: ${response.status}`).toBe(true)
  return (await response.json()) as Item[]
}

// On the Worker, the items live in the SQLite storage of the collection's Durable Object, which
// Miniflare keeps in a folder: a restart is a new runtime on that folder, with nothing in memory.
describe.each(targets)('acknowledged writes on $name', (target) => {
  it('are all there after a restart on the same data, in the same order, and writes go on', async () => {
    const service = await target.start({})
    try {
      for (let n = 1; n <= 5; n++) await send(service, 'POST', '/items', movie(n))
      // Many at once, too: each is acknowledged on its own.
      await Promise.all([7, 8, 9, 10, 11, 12].map((n) => send(service, 'POST', '/items', movie(n))))
      await send(service, 'PUT', '/items/tt2', { genre: 'Comedy', id: 'tt200' })
      const acknowledged = await send(service, 'DELETE', '/items/tt4')
      expect(acknowledged).toHaveLength(10)
      expect(acknowledged.slice(0, 4).map((item) => item.id)).toEqual([
        'tt1',
        'tt200',
        'tt3',
        'tt5',
      ])

      await service.restart()
      expect(await send(service, 'GET', '/items')).toEqual(acknowledged)
      expect(await send(service, 'GET', '/items/tt200')).toEqual(acknowledged[1])
      const after = await send(service, 'POST', '/items', movie(99))
      expect(after).toEqual([...acknowledged, expect.objectContaining(movie(99))])
      // Keys keep growing after the restart: the new item sorts after every earlier one.
      const keys = after.map((item) => item._id)
      expect([...keys].sort()).toEqual(keys)

      await service.restart()
      expect(await send(service, 'GET', '/items')).toEqual(after)
    } finally {
      await service.stop()
    }
  })
})
