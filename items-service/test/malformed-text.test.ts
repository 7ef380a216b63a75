import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MongoStandIn } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../src/app.js'
import { EmbeddedItemStore } from '../src/store/embedded/embedded-item-store.js'
import type { ItemStore } from '../src/store/item-store.js'
import { MongoItemStore } from '../src/store/mongo/mongo-item-store.js'
import { refusedOnCreate, refusedOnUpdate } from './support/refused-item-bodies.js'
import { movies } from './support/test-app.js'

/** A store of each kind, and what its database received that writes. */
type OpenedStore = { store: ItemStore; writesSent: () => number; close: () => Promise<void> }

const writeCommands = ['insert', 'update', 'delete', 'findAndModify']

const stores: [string, () => Promise<OpenedStore>][] = [
  [
    'the embedded store',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'items-malformed-'))
      const store = await EmbeddedItemStore.open(dir)
      return {
        store,
        // The list the routes answer is the store's own record of its writes.
        writesSent: () => 0,
        close: async () => {
          await store.close()
          await rm(dir, { recursive: true, force: true })
        },
      }
    },
  ],
  [
    'MongoDB (a replica set of the wire-protocol stand-in)',
    async () => {
      // A replica set, as Atlas is: the change feed's path is served, not 501.
      const standIn = await MongoStandIn.start({ setName: 'rs0' })
      const store = await MongoItemStore.connect({ url: standIn.url, timeoutMs: 2_000 })
      return {
        store,
        writesSent: () =>
          writeCommands.reduce((sum, name) => sum + standIn.received(name).length, 0),
        close: async () => {
          await store.close()
          await standIn.close()
        },
      }
    },
  ],
]

let opened: OpenedStore | undefined
afterEach(async () => {
  await opened?.close()
  opened = undefined
})

async function appOver(open: () => Promise<OpenedStore>) {
  opened = await open()
  return { app: createApp({ store: opened.store, log: () => {} }), ...opened }
}

const json = { 'content-type': 'application/json' }

describe.each(stores)('a write with a lone surrogate, on %s', (_, open) => {
  it('is refused with 400 naming the field, before anything reaches the store', async () => {
    const { app, writesSent } = await appOver(open)
    const post = (body: BodyInit) => app.request('/items', { method: 'POST', headers: json, body })
    expect((await post(JSON.stringify(movies.godfather))).status).toBe(201)
    const list = await (await app.request('/items')).text()
    const sent = writesSent()
    const refused = [
      ...refusedOnCreate.map(({ what, body, fields }) => ({
        what,
        fields,
        send: () => post(body),
      })),
      ...refusedOnUpdate.map(({ what, body, fields }) => ({
        what: `a rename or update with ${what}`,
        fields,
        send: () =>
          app.request(`/items/${movies.godfather.id}`, { method: 'PUT', headers: json, body }),
      })),
    ].filter(({ what }) => /surrogate|pair/.test(what))
    expect(refused.length).toBe(13)
    for (const { what, fields, send } of refused) {
      const response = await send()
      expect(response.status, what).toBe(400)
      const answer = (await response.json()) as { issues: { path: string }[] }
      expect(
        answer.issues.map(({ path }) => path),
        what,
      ).toEqual(fields)
    }
    // A path that spells a lone surrogate's bytes: no item is looked up or changed.
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await app.request('/items/lone%ED%A0%80', {
        method,
        headers: json,
        body: method === 'PUT' ? '{"genre":"x"}' : null,
      })
      expect(response.status, method).toBe(400)
    }
    expect(await (await app.request('/items')).text()).toBe(list)
    expect(writesSent()).toBe(sent)
  })
})

describe.each(stores)('a control character in a field name, on %s', (_, open) => {
  it('is refused with 400 in a filter and in a write, before anything reaches the store', async () => {
    const { app, writesSent } = await appOver(open)
    expect(
      (
        await app.request('/items', {
          method: 'POST',
          headers: json,
          body: JSON.stringify(movies.godfather),
        })
      ).status,
    ).toBe(201)
    const list = await (await app.request('/items')).text()
    const sent = writesSent()
    for (const name of ['a%00b', 'a%0Ab', 'x%7F', '%C2%85y']) {
      const answer = await app.request(`/items?${name}=1`)
      expect(answer.status, name).toBe(400)
      expect(await answer.json()).toMatchObject({ error: 'invalid query parameter' })
    }
    for (const field of ['"a\\u0000b":1', '"a\\nb":1', '"nested":{"x\\u0007":1}']) {
      const body = `{"id":"tt9","name":"n","genre":"g",${field}}`
      const answer = await app.request('/items', { method: 'POST', headers: json, body })
      expect(answer.status, field).toBe(400)
      const update = await app.request(`/items/${movies.godfather.id}`, {
        method: 'PUT',
        headers: json,
        body: `{${field}}`,
      })
      expect(update.status, field).toBe(400)
    }
    expect(await (await app.request('/items')).text()).toBe(list)
    expect(writesSent()).toBe(sent)
  })
})

/** Items a store may hold from before its rules, or that test them at their edges. */
const oddItems = [
  { id: 'lone\ud800', name: 'stored before lone surrogates were refused', genre: 'g' },
  { id: 'events', name: 'stored before the change feed took the path', genre: 'g' },
  { id: '%ED%A0%80', name: 'the text of a broken escape', genre: 'g' },
  { id: '🎬 a/b?c#d', name: 'Astral and URL characters', genre: 'g\udfff' },
  { id: 'deep', name: 'n', genre: 'g', deep: { a: { b: { c: { d: [1] } } } }, note: '\ud83c' },
]

/** The path of an item, when its id has one: a lone surrogate has no UTF-8 to encode. */
const pathOf = (id: string) => (id.isWellFormed() ? `/items/${encodeURIComponent(id)}` : null)

describe.each(stores)('items already stored, on %s', (_, open) => {
  it('are answered by every route without a 5xx', async () => {
    const { app, store } = await appOver(open)
    for (const item of oddItems) await store.insert(item)
    const answered: string[] = []
    const ask = async (path: string, init: RequestInit = {}) => {
      const response = await app.request(path, init)
      answered.push(`${init.method ?? 'GET'} ${path} ${response.status}`)
      await response.body?.cancel()
      return response
    }
    await ask('/items')
    await ask('/items', { method: 'HEAD' })
    await ask('/items', { headers: { 'accept-encoding': 'br' } })
    await ask('/items', { headers: { 'accept-encoding': 'gzip' } })
    for (const sort of ['id', '-id', 'name', '-genre']) await ask(`/items?sort=${sort}`)
    let next: string | null = '/items?limit=1'
    for (let pages = 0; next !== null && pages < oddItems.length + 1; pages += 1) {
      const link: string | null = (await ask(next)).headers.get('link')
      next = link && (/<([^>]+)>/.exec(link)?.[1] ?? null)
    }
    await ask('/items/events', { headers: { 'last-event-id': '0' } })
    await ask('/healthz')
    for (const { id } of oddItems) {
      const path = pathOf(id)
      if (path === null) continue
      await ask(`/items?id=${encodeURIComponent(id)}`)
      await ask(path)
      await ask(path, { method: 'HEAD' })
      await ask(path, { method: 'PUT', headers: json, body: '{"genre":"Drama"}' })
    }
    for (const { id } of oddItems) {
      const path = pathOf(id)
      if (path !== null) await ask(path, { method: 'DELETE' })
    }
    await ask('/items')
    expect(answered.filter((line) => / 5\d\d$/.test(line))).toEqual([])
    expect(answered.length).toBeGreaterThan(30)
  })
})
