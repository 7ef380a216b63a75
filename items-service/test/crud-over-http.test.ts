import { type BuiltEntry, killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'

const json = { 'content-type': 'application/json', 'x-apikey': 'test-key' }
const heat = { id: 'tt0113277', name: 'Heat', genre: 'Crime' }
const amelie = { id: 'Amélie 2001', name: 'Le Fabuleux Destin d’Amélie Poulain', genre: 'Comedy' }
const path = (id: string) => `/items/${encodeURIComponent(id)}`

describe('the built service over HTTP', () => {
  afterAll(killBuiltEntries)
  let service: BuiltEntry
  const call = (route: string, init: RequestInit = {}) => fetch(service.url + route, init)

  beforeAll(async () => {
    service = await startService({
      DATA_DIR: await temporaryDataDir(),
      ITEMS_APIKEY: 'test-key',
      CORS_ORIGINS: 'https://app.example',
    })
  })

  it('runs the whole CRUD flow', async () => {
    expect(await (await call('/items')).json()).toEqual([])

    const created = await call('/items', {
      method: 'POST',
      headers: json,
      body: JSON.stringify(heat),
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe('/items/tt0113277')
    const second = await call('/items', {
      method: 'POST',
      headers: json,
      body: JSON.stringify(amelie),
    })
    expect(second.headers.get('location')).toBe(path(amelie.id))
    const [first, stored] = await second.json()
    expect(first).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), ...heat })

    expect(await (await call(path(amelie.id))).json()).toEqual(stored)

    const updated = await call(path(amelie.id), {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ genre: 'Romance' }),
    })
    expect(await updated.json()).toEqual([first, { ...stored, genre: 'Romance' }])

    const deleted = await call(path(heat.id), { method: 'DELETE', headers: json })
    expect(await deleted.json()).toEqual([{ ...stored, genre: 'Romance' }])

    const missing = await call(path(heat.id))
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: "item 'tt0113277' not found" })
  })

  it('applies ITEMS_APIKEY and CORS_ORIGINS from the environment', async () => {
    const refused = await call('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://app.example' },
      body: JSON.stringify(heat),
    })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const other = await call('/items', { headers: { origin: 'https://other.example' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
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
    expect((await call('/healthz')).status).toBe(200)
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
    const ids = ((await (await call('/items')).json()) as { id: string }[]).map(({ id }) => id)
    expect(ids).toContain('edge-64k')
    expect(ids).not.toContain('edge-64k-1')
  })

  it('answers a method a path lacks with 405 and Allow, also where the front serves the GET', async () => {
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

  it('writes one log line per request with its id, and never the key', async () => {
    const response = await call('/healthz')
    const requestId = response.headers.get('x-request-id') as string
    await new Promise((resolve) => setTimeout(resolve, 50))
    const lines = service.stdout.split('\n').filter((line) => line.includes(` ${requestId} `))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/ GET \/healthz 200 \d+(\.\d+)?ms$/)
    expect(service.stdout + service.stderr).not.toContain('test-key')
  })
})
