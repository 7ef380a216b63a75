import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The bound the Worker benches set items-service against (bench/workers/bare-worker.mjs, through
// an object) must keep what it was sent as a service's object does: the runtime evicts an object
// that has been idle for a few seconds, and the windows bench leaves each one idle while it loads
// the others. An object that started again from its documents alone refused every later create.
const script = fileURLToPath(new URL('../bench/workers/bare-worker.mjs', import.meta.url))
const documents = [
  { _id: '67000000c0c0c0c0c0000000', id: 'm1', name: 'Alien', genre: 'sf' },
  { _id: '67000000c0c0c0c0c0000001', id: 'm2', name: 'Heat', genre: 'crime' },
]

/** The bare Worker through one object, its storage in `persist`. */
const throughAnObject = (persist: string) =>
  new Miniflare({
    modules: true,
    scriptPath: script,
    compatibilityDate: '2025-01-01',
    bindings: { DOCUMENTS: JSON.stringify(documents) },
    durableObjects: { ITEMS: { className: 'ItemsObject', useSQLite: true } },
    durableObjectsPersist: persist,
  })

const create = (worker: Miniflare, id: string) =>
  worker.dispatchFetch('http://bench/items', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: `Movie ${id}`, genre: 'drama' }),
  })

describe('the bare Worker through an object (the benches’ bound)', () => {
  let persist = ''
  beforeAll(async () => {
    persist = await mkdtemp(join(tmpdir(), 'bare-worker-'))
  })
  afterAll(async () => {
    await rm(persist, { recursive: true, force: true })
  })

  it('answers the creates it stored, and takes new ones, after its object starts again', async () => {
    const first = throughAnObject(persist)
    try {
      for (const id of ['w1', 'w2']) expect((await create(first, id)).status).toBe(201)
    } finally {
      await first.dispose()
    }

    const again = throughAnObject(persist)
    try {
      const stored = await again.dispatchFetch('http://bench/items/w2')
      expect(stored.status).toBe(200)
      expect(await stored.json()).toMatchObject({ id: 'w2', name: 'Movie w2' })
      const created = await create(again, 'w3')
      expect(created.status).toBe(201)
      const ids = ((await created.json()) as { id: string; _id: string }[]).map(({ id }) => id)
      expect(ids).toEqual(['m1', 'm2', 'w1', 'w2', 'w3'])
      const list = await (await again.dispatchFetch('http://bench/items')).json()
      const keys = (list as { _id: string }[]).map(({ _id }) => _id)
      expect(new Set(keys).size).toBe(keys.length)
    } finally {
      await again.dispose()
    }
  })
})
