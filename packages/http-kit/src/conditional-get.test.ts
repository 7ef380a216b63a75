import { describe, expect, it, vi } from 'vitest'
import { noneMatchHits, sendTaggedResponse, taggedResponse } from './conditional-get.js'
import { createPlainServiceApp } from './plain-service-app.js'

const list = { body: new TextEncoder().encode('[]'), etag: '"a1"' }
const json = { 'content-type': 'application/json', vary: 'Accept-Encoding' }

describe('noneMatchHits', () => {
  it('hits on the tag, on *, and on a list holding it, weak or not', () => {
    for (const header of ['"a1"', '*', ' * ', '"x", "a1"', 'W/"a1"', '"x",W/"a1" ']) {
      expect(noneMatchHits(header, '"a1"'), header).toBe(true)
    }
  })

  it('misses without the header, on another tag, and on the tag unquoted', () => {
    for (const header of [undefined, '', '"a2"', 'a1', '"x", "y"']) {
      expect(noneMatchHits(header, '"a1"'), String(header)).toBe(false)
    }
  })
})

describe('taggedResponse', () => {
  it('answers 200 with the bytes, the headers and the tag', () => {
    expect(taggedResponse(list, '"old"', json)).toEqual({
      status: 200,
      etag: '"a1"',
      headers: json,
      body: list.body,
    })
  })

  it('answers 304 with the tag and what a 304 keeps (Vary), nothing about a body', () => {
    expect(taggedResponse(list, 'W/"a1"', json)).toEqual({
      status: 304,
      etag: '"a1"',
      headers: { vary: 'Accept-Encoding' },
      body: null,
    })
    // Made once per headers object: a server passing constants allocates nothing per answer.
    expect(taggedResponse(list, '"a1"', json).headers).toBe(taggedResponse(list, '*', json).headers)
  })

  it('lets go of a stream it does not send, and sends one it does', async () => {
    let cancelled = 0
    const streamed = () =>
      new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(new TextEncoder().encode('[]')),
        cancel: () => {
          cancelled += 1
        },
      })
    const notModified = taggedResponse({ body: streamed(), etag: '"a1"' }, '"a1"', json)
    expect(notModified.body).toBeNull()
    await vi.waitFor(() => expect(cancelled).toBe(1))
    const sent = taggedResponse({ body: streamed(), etag: '"a1"' }, '"a0"', json)
    expect(sent.body).toBeInstanceOf(ReadableStream)
    expect(cancelled).toBe(1)
  })
})

describe('sendTaggedResponse', () => {
  const app = createPlainServiceApp({ log: () => {}, corsOrigins: [], apiKeys: [] }).get(
    '/list',
    (c) => sendTaggedResponse(c, taggedResponse(list, c.req.header('if-none-match'), json)),
  )

  it('answers with the headers of the request and those of CORS', async () => {
    const response = await app.request('/list', { headers: { origin: 'https://app.example' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('vary')).toBe('Accept-Encoding')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.text()).toBe('[]')
  })

  it('gives each response its own id and tag, apps taking turns on one representation', async () => {
    const other = createPlainServiceApp({
      log: () => {},
      corsOrigins: ['https://app.example'],
      apiKeys: [],
    }).get('/list', (c) =>
      sendTaggedResponse(c, taggedResponse({ ...list, etag: '"b2"' }, undefined, json)),
    )
    const origin = { origin: 'https://app.example' }
    const answers = [
      await app.request('/list', { headers: origin }),
      await other.request('/list', { headers: origin }),
      await app.request('/list', { headers: { ...origin, 'x-request-id': 'caller-1' } }),
    ]
    const seen = answers.map((response) => [
      response.headers.get('etag'),
      response.headers.get('access-control-allow-origin'),
      response.headers.get('x-content-type-options'),
      response.headers.get('content-type'),
    ])
    expect(seen).toEqual([
      ['"a1"', '*', 'nosniff', 'application/json'],
      ['"b2"', '*', 'nosniff', 'application/json'],
      ['"a1"', '*', 'nosniff', 'application/json'],
    ])
    const ids = answers.map((response) => response.headers.get('x-request-id'))
    expect(new Set(ids).size).toBe(3)
    expect(ids[2]).toBe('caller-1')
  })

  it('answers a 304 without a body, with the same Vary', async () => {
    const response = await app.request('/list', { headers: { 'if-none-match': '"a1"' } })
    expect([response.status, response.headers.get('vary'), await response.text()]).toEqual([
      304,
      'Accept-Encoding',
      '',
    ])
  })
})
