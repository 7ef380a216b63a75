import { consoleObjectsIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { EventReader } from './support/event-reader.js'
import { targets, useRunning } from './support/targets.js'

const json = { 'content-type': 'application/json', 'x-apikey': 'items-test-api-key' }
const heat = { id: 'tt0113277', name: 'Heat', genre: 'Crime' }

describe.each(targets)('the service around the items on $name', (target) => {
  const service = useRunning(target, {
    ITEMS_APIKEY: 'items-test-api-key',
    CORS_ORIGINS: 'https://app.example',
    EVENTS_HEARTBEAT_MS: '200',
  })
  const call = (route: string, init: RequestInit = {}) => service().request(route, init)
  const follow = async (headers: Record<string, string> = {}) => {
    const response = await call('/items/events', { headers })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    return new EventReader(response.body)
  }

  it('applies ITEMS_APIKEY and CORS_ORIGINS from the settings', async () => {
    const refused = await call('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://app.example' },
      body: JSON.stringify(heat),
    })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
    const wrongKey = await call('/items', {
      method: 'POST',
      headers: { ...json, 'x-apikey': 'nope' },
      body: JSON.stringify(heat),
    })
    expect(wrongKey.status).toBe(401)
    expect(await (await call('/items')).json()).toEqual([])
    const other = await call('/items', { headers: { origin: 'https://other.example' } })
    expect(other.status).toBe(200)
    expect(other.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('allows writes in a preflight to the listed origin, and to a page that sends the key', async () => {
    const preflight = (origin: string, headers: string) =>
      call('/items/tt1', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': headers,
        },
      })
    const methods = async (origin: string, headers: string) => {
      const answer = await preflight(origin, headers)
      expect(answer.status).toBe(204)
      return answer.headers.get('access-control-allow-methods')
    }
    expect(await methods('https://app.example', 'content-type')).toContain('PUT')
    expect(await methods('https://other.example', 'content-type, x-apikey')).toContain('PUT')
    expect(await methods('https://other.example', 'content-type')).toBe('GET, HEAD, OPTIONS')
  })

  it("keeps a client's x-request-id and makes one when none is given", async () => {
    const kept = await call('/healthz', { headers: { 'x-request-id': 'client-id_42' } })
    expect(kept.headers.get('x-request-id')).toBe('client-id_42')
    const made = [await call('/healthz'), await call('/healthz')].map((response) =>
      response.headers.get('x-request-id'),
    )
    expect(made[0]).toMatch(/^[\w.:-]+$/)
    expect(made[1]).not.toBe(made[0])
  })

  // Both log each request on stdout: Node's process a line, the Worker's console an object
  // (which workerd writes to its stdout; Workers Logs keeps it with its fields indexed).
  it('logs each request once with its id, and never the key', async () => {
    const response = await call('/healthz')
    const requestId = response.headers.get('x-request-id') as string
    await new Promise((resolve) => setTimeout(resolve, 100))
    if (target.name === 'node') {
      const lines = service()
        .stdout.split('\n')
        .filter((line) => line.includes(` ${requestId} `))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/ GET \/healthz 200 \d+(\.\d+)?ms$/)
    } else {
      const logged = consoleObjectsIn(service().stdout).filter(
        (entry) => entry.requestId === requestId,
      )
      expect(logged).toEqual([
        expect.objectContaining({
          method: 'GET',
          path: '/healthz',
          route: '/healthz',
          status: 200,
        }),
      ])
    }
    expect(service().stdout).not.toContain('items-test-api-key')
  })

  it('streams an updated event after a PUT, and replays what a reconnect missed', async () => {
    const events = await follow()
    const { id: start } = await events.block()
    expect(start).toMatch(/^\d+$/)
    await call('/items', { method: 'POST', headers: json, body: JSON.stringify(heat) })
    await call('/items/tt0113277', { method: 'PUT', headers: json, body: '{"year":1995}' })
    const [created, updated] = [await events.event(), await events.event()]
    expect([created.event, updated.event]).toEqual(['created', 'updated'])
    expect(JSON.parse(updated.data)).toEqual({ ...JSON.parse(created.data), year: 1995 })
    await events.cancel()

    // Changes while no one follows, then a reconnect from the last event seen.
    await call('/items/tt0113277', { method: 'PUT', headers: json, body: '{"year":1996}' })
    await call('/items/tt0113277', { method: 'DELETE', headers: json })
    const replay = await follow({ 'last-event-id': updated.id as string })
    const missed = [await replay.event(), await replay.event()]
    expect(missed.map(({ event, data }) => [event, JSON.parse(data).year])).toEqual([
      ['updated', 1996],
      ['deleted', 1996],
    ])
    // A quiet stream gets heartbeats (comments), at EVENTS_HEARTBEAT_MS.
    expect((await replay.block(2_000)).comments.length).toBeGreaterThan(0)
    await replay.cancel()
  })

  it('serves the page at /, its script, /docs, /openapi.json and /healthz', async () => {
    const page = await call('/')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('<script type="module" src="/assets/app.js"></script>')
    const script = await call('/assets/app.js')
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect((await script.text()).length).toBeGreaterThan(1_000)

    const docs = await call('/docs')
    expect(docs.status).toBe(200)
    expect(await docs.text()).toContain('docs/swagger-ui-bundle.js')
    expect((await call('/docs/swagger-ui-bundle.js')).status).toBe(200)
    const openapi = await call('/openapi.json')
    expect(openapi.status).toBe(200)
    const document = await openapi.json()
    expect(document.openapi).toMatch(/^3\./)
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/items', '/items/{id}', '/items/events', '/healthz']),
    )

    const health = await call('/healthz')
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual(expect.any(Object))
  })
})

describe.each(targets)('drive-by writes on $name, where no key is set', (target) => {
  const service = useRunning(target, {})
  const write = (method: string, path: string, origin: string) =>
    service().request(path, {
      method,
      headers: { 'content-type': 'application/json', origin },
      body: method === 'DELETE' ? null : JSON.stringify(heat),
    })

  it("refuses a page on another origin with 403 and takes the service's own page", async () => {
    const own = await service().request('/items', { headers: { origin: 'https://x.example' } })
    const host = new URL(own.url || 'http://items.test').host
    for (const [method, path] of [
      ['POST', '/items'],
      ['PUT', `/items/${heat.id}`],
      ['DELETE', `/items/${heat.id}`],
    ] as const) {
      const refused = await write(method, path, 'https://evil.example')
      expect(refused.status, method).toBe(403)
      expect(await refused.json()).toEqual({
        error: 'a write from https://evil.example needs that origin in CORS_ORIGINS',
      })
    }
    expect(await (await service().request('/items')).json()).toEqual([])
    expect((await write('POST', '/items', `http://${host}`)).status).toBe(201)
  })
})

describe.each(targets)('a bounded collection on $name', (target) => {
  const service = useRunning(target, { ITEMS_MAX_COUNT: '2', ITEMS_MAX_BYTES: '100000' })
  const create = (id: string) =>
    service().request('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...heat, id }),
    })

  it('refuses the create past ITEMS_MAX_COUNT with 507, and changes nothing', async () => {
    expect([(await create('tt1')).status, (await create('tt2')).status]).toEqual([201, 201])
    const refused = await create('tt3')
    expect(refused.status).toBe(507)
    expect(await refused.json()).toEqual({
      error: 'the collection holds 2 items, the most ITEMS_MAX_COUNT allows: delete some first',
    })
    const ids = ((await (await service().request('/items')).json()) as { id: string }[]).map(
      ({ id }) => id,
    )
    expect(ids).toEqual(['tt1', 'tt2'])
  })
})
