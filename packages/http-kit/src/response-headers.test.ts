import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { addResponseHeader, completeResponse, responseWithHeaders } from './response-headers.js'

const app = new Hono()
  .use(async (c, next) => {
    addResponseHeader(c, 'x-request-id', 'r-1')
    addResponseHeader(c, 'access-control-allow-origin', '*')
    await next()
    completeResponse(c)
  })
  .get('/made-whole', (c) =>
    responseWithHeaders(c, '[]', 200, { 'content-type': 'application/json', etag: '"a"' }),
  )
  .get('/refused', (c) => c.json({ error: 'no' }, 404, { 'access-control-allow-origin': 'x' }))
  .get('/redirect', () => Response.redirect('http://127.0.0.1/elsewhere', 302))
  .get('/thrown', () => {
    throw new Error('boom')
  })
  .onError((_, c) => c.json({ error: 'internal error' }, 500))

const headersOf = (answer: Response) => Object.fromEntries(answer.headers)

describe("an answer's headers", () => {
  it("are all in one made whole, its own with the request's", async () => {
    const answer = await app.request('/made-whole')
    expect(headersOf(answer)).toEqual({
      'access-control-allow-origin': '*',
      'content-type': 'application/json',
      etag: '"a"',
      'x-request-id': 'r-1',
    })
    expect(await answer.text()).toBe('[]')
  })

  it('are added to an answer made without them, which keeps its own where it names one', async () => {
    const answer = await app.request('/refused')
    expect(answer.status).toBe(404)
    expect(answer.headers.get('x-request-id')).toBe('r-1')
    expect(answer.headers.get('access-control-allow-origin')).toBe('x')
  })

  it('are added to an answer whose headers cannot change, on a copy', async () => {
    const answer = await app.request('/redirect')
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe('http://127.0.0.1/elsewhere')
    expect(answer.headers.get('x-request-id')).toBe('r-1')
  })

  it("are on the error handler's answer too", async () => {
    const answer = await app.request('/thrown')
    expect(answer.status).toBe(500)
    expect(answer.headers.get('x-request-id')).toBe('r-1')
  })
})
