import { describe, expect, it } from 'vitest'
import type { Item } from '../src/store/item-store.js'
import { targets, useRunning } from './support/targets.js'

const json = { 'content-type': 'application/json', 'x-apikey': 'items-test-api-key' }
const heat = { id: 'tt0113277', name: 'Heat', genre: 'Crime' }
const amelie = { id: 'Amélie 2001', name: 'Le Fabuleux Destin d’Amélie Poulain', genre: 'Comedy' }
const path = (id: string) => `/items/${encodeURIComponent(id)}`
const objectId = /^[0-9a-f]{24}$/

// One suite for both runtimes, so that no rule of the API can drift between them. The tests of a
// target share one running service: each reads the list it starts from, or uses ids of its own.
describe.each(targets)('the items routes on $name', (target) => {
  const service = useRunning(target, { ITEMS_APIKEY: 'items-test-api-key' })
  const call = (route: string, init: RequestInit = {}) => service().request(route, init)
  const send = (method: string, route: string, body: unknown, headers = {}) =>
    call(route, { method, headers: { ...json, ...headers }, body: JSON.stringify(body) })
  const list = async () => (await (await call('/items')).json()) as Item[]

  it('runs the whole CRUD flow, every mutation answering the full list', async () => {
    expect(await list()).toEqual([])

    const created = await send('POST', '/items', heat)
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe('/items/tt0113277')
    expect(await created.json()).toEqual([{ _id: expect.stringMatching(objectId), ...heat }])
    const second = await send('POST', '/items', amelie)
    expect(second.status).toBe(201)
    expect(second.headers.get('location')).toBe(path(amelie.id))
    const [first, stored] = await second.json()
    expect(first).toEqual({ _id: expect.stringMatching(objectId), ...heat })
    expect(stored).toEqual({ _id: expect.stringMatching(objectId), ...amelie })

    const one = await call(path(amelie.id))
    expect(one.status).toBe(200)
    expect(await one.json()).toEqual(stored)

    const updated = await send('PUT', path(amelie.id), { genre: 'Romance', year: 2001 })
    expect(updated.status).toBe(200)
    const merged = { ...stored, genre: 'Romance', year: 2001 }
    expect(await updated.json()).toEqual([first, merged])

    const deleted = await call(path(heat.id), { method: 'DELETE', headers: json })
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toEqual([merged])

    const missing = await call(path(heat.id))
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: "item 'tt0113277' not found" })
    for (const [method, body] of [
      ['PUT', '{"name":"x"}'],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(path(heat.id), { method, headers: json, body })
      expect(response.status, method).toBe(404)
    }
    expect(await list()).toEqual([merged])
  })

  it('answers 409 to an id that exists, on POST and on a PUT that changes the id, changing nothing', async () => {
    await send('POST', '/items', { ...heat, id: 'dup-a' })
    await send('POST', '/items', { ...heat, id: 'dup-b' })
    const before = await list()
    for (const response of [
      await send('POST', '/items', { ...amelie, id: 'dup-a' }),
      await send('PUT', path('dup-a'), { id: 'dup-b', name: 'Clash' }),
    ]) {
      expect(response.status).toBe(409)
      expect(await response.json()).toEqual({ error: expect.stringContaining('dup-') })
    }
    expect(await list()).toEqual(before)
  })

  it.each([
    ['invalid JSON', '{"id":"tt1",', undefined],
    ['an array', '[1]', undefined],
    ['a missing name', '{"id":"tt1","genre":"g"}', 'name'],
    ['a reserved field', '{"id":"tt1","name":"n","genre":"g","$where":1}', undefined],
  ])('answers 400 to %s and keeps nothing', async (_, body, field) => {
    const before = await list()
    const response = await call('/items', { method: 'POST', headers: json, body })
    expect(response.status).toBe(400)
    const answer = await response.json()
    expect(answer).toEqual(expect.objectContaining({ error: expect.any(String) }))
    if (field) expect(answer.issues).toEqual([expect.objectContaining({ path: field })])
    expect(await list()).toEqual(before)
  })

  it('refuses a lone surrogate with 400, keeps nothing of it, and stays up', async () => {
    const before = await (await call('/items')).text()
    const posted = await call('/items', {
      method: 'POST',
      headers: json,
      body: '{"id":"lone\\ud800","name":"n","genre":"g"}',
    })
    expect(posted.status).toBe(400)
    expect(await posted.json()).toMatchObject({ issues: [{ path: 'id' }] })
    expect(await (await call('/items')).text()).toBe(before)
    expect((await call('/healthz')).status).toBe(200)
  })

  it('says in English what each field of a refused body lacks', async () => {
    const posted = await send('POST', '/items', { id: 'tt-short', name: '' })
    expect(posted.status).toBe(400)
    expect(await posted.json()).toEqual({
      error: 'invalid request body',
      issues: [
        { path: 'name', message: 'Too small: expected string to have >=1 characters' },
        { path: 'genre', message: 'Invalid input: expected string, received undefined' },
      ],
    })
    const put = await send('PUT', path('tt-short'), {})
    expect(await put.json()).toEqual({
      error: 'invalid request body',
      issues: [{ path: '', message: 'at least one field is required' }],
    })
  })
  it('answers 415 to a body that is not declared JSON', async () => {
    const before = await list()
    const response = await call('/items', {
      method: 'POST',
      headers: { ...json, 'content-type': 'text/plain' },
      body: JSON.stringify({ ...heat, id: 'plain-text' }),
    })
    expect(response.status).toBe(415)
    expect(await response.json()).toEqual({ error: expect.any(String) })
    expect(await list()).toEqual(before)
  })

  it('takes a body of exactly 64 KiB with Content-Length and answers 413 to one byte more', async () => {
    const ofSize = (id: string, bytes: number) => {
      const item = JSON.stringify({ id, name: 'edge', genre: 'g', pad: '' })
      return item.replace('"pad":""', `"pad":"${'x'.repeat(bytes - item.length)}"`)
    }
    const post = (body: string) => call('/items', { method: 'POST', headers: json, body })
    const atLimit = await post(ofSize('edge-64k', 64 * 1024))
    expect(atLimit.status).toBe(201)
    const over = await post(ofSize('edge-64k-1', 64 * 1024 + 1))
    expect(over.status).toBe(413)
    expect(await over.json()).toEqual({ error: expect.stringContaining('larger') })
    const ids = (await list()).map(({ id }) => id)
    expect(ids).toContain('edge-64k')
    expect(ids).not.toContain('edge-64k-1')
    await call(path('edge-64k'), { method: 'DELETE', headers: json })
  })

  it('answers 413 to an oversized chunked body and stays up', async () => {
    const chunk = new TextEncoder().encode(
      `{"id":"big","name":"big","genre":"g","pad":"${'x'.repeat(70_000)}"}`,
    )
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < chunk.length; at += 4096)
          controller.enqueue(chunk.slice(at, at + 4096))
        controller.close()
      },
    })
    const response = await call('/items', {
      method: 'POST',
      headers: json,
      body,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ error: expect.any(String) })
    expect((await list()).map(({ id }) => id)).not.toContain('big')
    expect((await call('/healthz')).status).toBe(200)
  })

  it('answers a method a path lacks with 405 and Allow', async () => {
    for (const [method, route, allow] of [
      ['PATCH', '/items/tt0113277', 'GET, HEAD, PUT, DELETE, OPTIONS'],
      ['DELETE', '/items', 'GET, HEAD, POST, OPTIONS'],
      ['POST', '/healthz', 'GET, HEAD, OPTIONS'],
    ]) {
      const response = await call(route as string, { method, headers: json, body: '{}' })
      expect([response.status, response.headers.get('allow')], `${method} ${route}`).toEqual([
        405,
        allow,
      ])
      expect(await response.json()).toEqual({ error: expect.stringContaining('not allowed') })
    }
    const options = await call('/items', { method: 'OPTIONS' })
    expect([options.status, options.headers.get('allow')]).toEqual([
      204,
      'GET, HEAD, POST, OPTIONS',
    ])
  })
})
