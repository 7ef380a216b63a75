import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type BodyTimeoutVariables, jsonObjectBody } from './json-body.js'
import { parsedJsonBody } from './parsed-json-body.js'

/** An app whose one route takes a JSON object within `bodyTimeoutMs`, and answers it. */
function appWithin(bodyTimeoutMs: number) {
  return new Hono<{ Variables: BodyTimeoutVariables }>().post(
    '/things',
    (c, next) => {
      c.set('bodyTimeoutMs', bodyTimeoutMs)
      return next()
    },
    ...jsonObjectBody({ maxBytes: 1024 }),
    async (c) => c.json(await c.req.json(), 201),
  )
}

/** A POST whose body, of a declared length, arrives `afterMs` after its head. */
function lateBody(afterMs: number): Request {
  const bytes = new TextEncoder().encode('{"name":"Alien"}')
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, afterMs))
      controller.enqueue(bytes)
      controller.close()
    },
  })
  return new Request('http://service.test/things', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) },
    body,
    duplex: 'half',
  } as RequestInit)
}

describe('jsonObjectBody, its deadline', () => {
  it('answers 408 to a body that arrives after BODY_TIMEOUT_MS', async () => {
    const response = await appWithin(20).fetch(lateBody(200))
    expect(response.status).toBe(408)
    expect(await response.json()).toEqual({
      error: 'the request body did not arrive within 0.02 s',
    })
  })

  it('waits for the body when the app has no deadline (Infinity): its requests come read', async () => {
    const response = await appWithin(Number.POSITIVE_INFINITY).fetch(lateBody(200))
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ name: 'Alien' })
  })
})

describe('parsedJsonBody', () => {
  const post = (body: string) =>
    new Request('http://service.test/things', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })

  it('hands every check after jsonObjectBody the one value it parsed, BOM gone', async () => {
    const app = new Hono()
      .use('/things', ...jsonObjectBody({ maxBytes: 1024 }))
      .post('/things', async (c) => {
        const [first, second] = [await parsedJsonBody(c), await parsedJsonBody(c)]
        return c.json({ value: first, same: first === second }, 201)
      })
    const response = await app.fetch(post('\uFEFF{"name":"Alien","year":1979}'))
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ value: { name: 'Alien', year: 1979 }, same: true })
  })

  it('parses the body itself on a route without jsonObjectBody', async () => {
    const app = new Hono().post('/things', async (c) => c.json(await parsedJsonBody(c), 201))
    const response = await app.fetch(post('{"name":"Alien"}'))
    expect(await response.json()).toEqual({ name: 'Alien' })
  })
})
