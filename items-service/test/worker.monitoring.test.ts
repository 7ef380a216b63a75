import { consoleObjectsIn, dataPointsIn, trickledPost } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { WorkerUnderTest } from './support/worker-under-test.js'

const apiKey = 'worker-monitor-key-1'
let worker: WorkerUnderTest | undefined
afterEach(async () => {
  await worker?.stop()
  worker = undefined
})

/** Until what the runtime printed holds `count` of what `read` finds in it. */
async function printed<T>(read: (stdout: string) => T[], count: number): Promise<T[]> {
  for (let tries = 0; tries < 50; tries++) {
    const found = read(worker?.stdout ?? '')
    if (found.length >= count) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return read(worker?.stdout ?? '')
}

describe("items-service's Worker, monitored with the platform's tools", () => {
  it('logs each request as one object, and writes a data point per request to ANALYTICS', async () => {
    worker = await WorkerUnderTest.start({ ITEMS_APIKEY: apiKey }, undefined, 'default', {
      analytics: true,
    })
    const created = await worker.request('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
      body: JSON.stringify({ id: 'tt1', name: 'Heat', genre: 'Crime' }),
    })
    expect(created.status).toBe(201)
    const read = await worker.request('/items/tt1')
    expect(read.status).toBe(200)
    const missing = await worker.request('/no/such/path')
    expect(missing.status).toBe(404)
    const ids = [created, read, missing].map((response) => response.headers.get('x-request-id'))

    const logged = (await printed(consoleObjectsIn, 3)).filter((entry) => 'requestId' in entry)
    expect(logged.map(({ time, durationMs, ...rest }) => rest)).toEqual([
      {
        level: 'info',
        requestId: ids[0],
        method: 'POST',
        path: '/items',
        route: '/items',
        status: 201,
      },
      {
        level: 'info',
        requestId: ids[1],
        method: 'GET',
        path: '/items/tt1',
        route: '/items/:id',
        status: 200,
      },
      { level: 'info', requestId: ids[2], method: 'GET', path: '/no/such/path', status: 404 },
    ])
    for (const { durationMs } of logged) expect(durationMs).toEqual(expect.any(Number))

    const points = await printed(dataPointsIn, 3)
    expect(points.map(({ indexes, blobs }) => ({ indexes, blobs }))).toEqual([
      { indexes: ['/items'], blobs: ['request', 'POST', '/items', '201'] },
      { indexes: ['/items/:id'], blobs: ['request', 'GET', '/items/:id', '200'] },
      { indexes: [''], blobs: ['request', 'GET', '', '404'] },
    ])
    for (const { doubles } of points) expect(doubles?.[0]).toBeGreaterThanOrEqual(0)
    expect(points.map(({ doubles }) => doubles?.[1])).toEqual([201, 200, 404])
    expect(worker.stdout).not.toContain(apiKey)
  })

  it('writes one for an answer given before the app runs: a late body, a Worker misconfigured', async () => {
    const analytics = { analytics: true }
    worker = await WorkerUnderTest.start(
      { BODY_TIMEOUT_MS: '1000' },
      undefined,
      'default',
      analytics,
    )
    const { answer } = await trickledPost(worker.url, '/items', '{"id":"tt1"}')
    expect(answer?.status).toBe(408)
    const [late] = await printed(dataPointsIn, 1)
    await worker.stop()
    // Settings that do not parse: the app is never made, the Worker answers each request 503.
    worker = await WorkerUnderTest.start(
      { BODY_TIMEOUT_MS: 'soon' },
      undefined,
      'default',
      analytics,
    )
    expect(await worker.refusesAsMisconfigured(['/items/tt1'])).toBe(true)
    const [misconfigured] = await printed(dataPointsIn, 1)
    // No route answered either: the route is empty, as for a path no route has.
    expect([late, misconfigured].map(({ indexes, blobs } = {}) => ({ indexes, blobs }))).toEqual([
      { indexes: [''], blobs: ['request', 'POST', '', '408'] },
      { indexes: [''], blobs: ['request', 'GET', '', '503'] },
    ])
    expect(late?.doubles?.[0]).toBeGreaterThanOrEqual(900)
    expect([late?.doubles?.[1], misconfigured?.doubles?.[1]]).toEqual([408, 503])
  })

  it('writes no data point when no dataset is bound, and still logs its objects', async () => {
    worker = await WorkerUnderTest.start({})
    const read = await worker.request('/items/tt1')
    expect(read.status).toBe(404)
    const logged = await printed(consoleObjectsIn, 1)
    expect(logged).toContainEqual(
      expect.objectContaining({ requestId: read.headers.get('x-request-id'), status: 404 }),
    )
    expect(dataPointsIn(worker.stdout)).toEqual([])
  })
})
