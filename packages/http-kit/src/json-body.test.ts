import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type BodyTimeoutVariables, jsonObjectBody } from './json-body.js'

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
    const answer = await appWithin(20).fetch(lateBody(200))
    expect(answer.status).toBe(408)
    expect(await answer.json()).toEqual({ error: 'the request body did not arrive within 0.02 s' })
  })

  it('waits for the body when the app has no deadline (Infinity): its requests come read', async () => {
    const answer = await appWithin(Number.POSITIVE_INFINITY).fetch(lateBody(200))
    expect(answer.status).toBe(201)
    expect(await answer.json()).toEqual({ name: 'Alien' })
  })
})
