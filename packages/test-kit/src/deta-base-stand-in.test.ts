import { beforeEach, describe, expect, it } from 'vitest'
import { DetaBaseStandIn } from './deta-base-stand-in.js'

const projectKey = 'p0_secret'
let deta: DetaBaseStandIn

/** One call of the Base API, as the SDK makes it, answered by the stand-in's `fetch`. */
async function call(method: string, path: string, body?: unknown, key = projectKey) {
  const response = await deta.fetch(
    new Request(`https://base.example.com/v1/p0/${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
  return { status: response.status, body: await response.json() }
}

const insert = (base: string, item: Record<string, unknown>) =>
  call('POST', `${base}/items`, { item })
const query = (base: string, body: Record<string, unknown>) =>
  call('POST', `${base}/query`, { limit: 1000, ...body })
const keysOf = (answer: { body: { items: { key: string }[] } }) =>
  answer.body.items.map((item) => item.key)

beforeEach(() => {
  deta = new DetaBaseStandIn()
})

describe('DetaBaseStandIn', () => {
  it('inserts, refuses a key that exists with 409, gets (404 when absent) and deletes', async () => {
    expect(await insert('logs', { key: 'a', n: 1 })).toEqual({
      status: 201,
      body: { key: 'a', n: 1 },
    })
    expect(await insert('logs', { key: 'a', n: 2 })).toEqual({
      status: 409,
      body: { errors: ["Key 'a' already exists"] },
    })
    expect(await call('GET', 'logs/items/a')).toEqual({ status: 200, body: { key: 'a', n: 1 } })
    expect((await call('DELETE', 'logs/items/a')).status).toBe(200)
    expect((await call('GET', 'logs/items/a')).status).toBe(404)
  })

  it('makes a key for an item without one, and put replaces what a key held', async () => {
    const { body } = await insert('logs', { n: 1 })
    expect(body.key).toMatch(/^[0-9a-f]{12}$/)
    const put = await call('PUT', 'logs/items', { items: [{ key: body.key, n: 2 }, { n: 3 }] })
    expect(put.status).toBe(207)
    expect(deta.items('logs').map((item) => item.n)).toEqual(expect.arrayContaining([2, 3]))
    expect(deta.items('logs')).toHaveLength(2)
  })

  it('queries by equality and comparisons, a list of queries being their union', async () => {
    for (const [key, at] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const) {
      await insert('sends', { key, bucket: 'x', at })
    }
    await insert('sends', { key: 'd', bucket: 'y', at: 9 })
    expect(keysOf(await query('sends', { query: [{ bucket: 'x', 'at?gt': 1 }] }))).toEqual([
      'b',
      'c',
    ])
    expect(keysOf(await query('sends', { query: [{ 'at?lte': 1 }, { bucket: 'y' }] }))).toEqual([
      'a',
      'd',
    ])
    expect((await query('sends', { query: [{ 'at?near': 1 }] })).status).toBe(400)
  })

  it('pages in key order by limit and last, either way', async () => {
    for (const key of ['a', 'b', 'c']) await insert('logs', { key })
    const first = await query('logs', { query: [], limit: 2, sort: 'desc' })
    expect(first.body).toEqual({
      items: [{ key: 'c' }, { key: 'b' }],
      paging: { size: 2, last: 'b' },
    })
    const next = await query('logs', { query: [], limit: 2, sort: 'desc', last: 'b' })
    expect(next.body).toEqual({ items: [{ key: 'a' }], paging: { size: 1 } })
    expect(keysOf(await query('logs', { query: [], last: 'a' }))).toEqual(['b', 'c'])
  })

  it('forgets an item once its __expires has passed', async () => {
    const now = Math.floor(Date.now() / 1000)
    await insert('keys', { key: 'old', __expires: now - 1 })
    await insert('keys', { key: 'new', __expires: now + 60 })
    expect(deta.items('keys').map((item) => item.key)).toEqual(['new'])
    expect((await call('GET', 'keys/items/old')).status).toBe(404)
  })

  it("refuses another project's key with 401, and a failing base with 500", async () => {
    expect((await insert('logs', { key: 'a' })).status).toBe(201)
    expect(await call('GET', 'logs/items/a', undefined, 'p1_other')).toEqual({
      status: 401,
      body: { errors: ['Unauthorized'] },
    })
    deta.failing.add('logs')
    expect(await call('GET', 'logs/items/a')).toEqual({
      status: 500,
      body: { errors: ['stand-in is failing on purpose'] },
    })
    expect((await insert('other', { key: 'a' })).status).toBe(201)
  })

  it('records every request, by base, and forgets everything on clear()', async () => {
    await insert('logs', { key: 'a' })
    await call('GET', 'keys/items/a')
    expect(deta.requests).toEqual([
      {
        method: 'POST',
        host: 'base.example.com',
        path: '/v1/p0/logs/items',
        apiKey: projectKey,
        body: { item: { key: 'a' } },
      },
      {
        method: 'GET',
        host: 'base.example.com',
        path: '/v1/p0/keys/items/a',
        apiKey: projectKey,
        body: undefined,
      },
    ])
    expect(deta.requestsTo('keys')).toEqual([deta.requests[1]])
    deta.failing.add('logs')
    deta.clear()
    expect([deta.requests, deta.items('logs'), [...deta.failing]]).toEqual([[], [], []])
  })
})
