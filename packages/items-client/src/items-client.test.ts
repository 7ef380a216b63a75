import { describe, expect, it } from 'vitest'
import { movie, recordingFetch, stored } from '../test/support/request-fixtures.js'
import { createItemsClient } from './items-client.js'
import type { Fetch } from './request-headers.js'

describe('createItemsClient', () => {
  it('sends each operation to its route, ids URL-encoded', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test/', { fetch })
    await items.list()
    await items.get('a/b ?#%')
    await items.create(movie)
    await items.update('Amélie 2001', { genre: 'Comedy' })
    await items.remove('tt0111161')
    expect(sent.map(({ method, url, body }) => [method, url, body])).toEqual([
      ['GET', 'http://api.test/items', null],
      ['GET', 'http://api.test/items/a%2Fb%20%3F%23%25', null],
      ['POST', 'http://api.test/items', movie],
      ['PUT', 'http://api.test/items/Am%C3%A9lie%202001', { genre: 'Comedy' }],
      ['DELETE', 'http://api.test/items/tt0111161', null],
    ])
  })

  it('keeps a path prefix of the base URL, and takes a URL object', async () => {
    const { fetch, sent } = recordingFetch()
    await createItemsClient(new URL('https://example.test/api/v1'), { fetch }).list()
    await createItemsClient('', { fetch }).list()
    expect(sent.map(({ url }) => url)).toEqual(['https://example.test/api/v1/items', '/items'])
  })

  it('sends the API key with writes only, and the given headers with every request', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', {
      fetch,
      apiKey: 'items-client-key-1',
      headers: { 'x-request-id': 'trace-1' },
    })
    await items.list()
    await items.create(movie)
    await items.remove('tt0111161')
    expect(sent.map(({ headers }) => headers)).toEqual([
      { 'x-request-id': 'trace-1' },
      {
        'x-request-id': 'trace-1',
        'x-apikey': 'items-client-key-1',
        'content-type': 'application/json',
      },
      { 'x-request-id': 'trace-1', 'x-apikey': 'items-client-key-1' },
    ])
  })

  it('resolves to the parsed answer', async () => {
    const { fetch } = recordingFetch(() => Response.json([stored], { status: 201 }))
    await expect(createItemsClient('http://api.test', { fetch }).create(movie)).resolves.toEqual([
      stored,
    ])
  })

  it('calls the global fetch when given none, looked up at the call', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test')
    const original = globalThis.fetch
    globalThis.fetch = fetch as typeof globalThis.fetch
    try {
      await items.list()
    } finally {
      globalThis.fetch = original
    }
    expect(sent).toHaveLength(1)
  })

  it('sends a call’s headers with that request only, over the client’s', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', {
      fetch,
      apiKey: 'items-client-key-1',
      headers: { 'x-request-id': 'trace-1', 'accept-language': 'fr' },
    })
    await items.list({}, { headers: { 'x-request-id': 'trace-2' } })
    await items.get('tt1', { headers: new Headers({ 'x-tenant': 'a' }) })
    await items.remove('tt1', { headers: [['x-apikey', 'not-this-items-api-key']], ifMatch: '*' })
    await items.list()
    expect(sent.map(({ headers }) => headers)).toEqual([
      { 'x-request-id': 'trace-2', 'accept-language': 'fr' },
      { 'x-request-id': 'trace-1', 'accept-language': 'fr', 'x-tenant': 'a' },
      {
        'x-request-id': 'trace-1',
        'accept-language': 'fr',
        'x-apikey': 'items-client-key-1',
        'if-match': '*',
      },
      { 'x-request-id': 'trace-1', 'accept-language': 'fr' },
    ])
  })

  it('passes the signal of a call on', async () => {
    const controller = new AbortController()
    let signal: AbortSignal | null | undefined
    const fetch: Fetch = async (_url, init) => {
      signal = init.signal
      return Response.json([])
    }
    await createItemsClient('http://api.test', { fetch }).list({}, { signal: controller.signal })
    expect(signal).toBe(controller.signal)
  })
})

describe('an aborted call', () => {
  it('rejects with the signal’s reason, sending nothing when aborted before', async () => {
    const { fetch, sent } = recordingFetch()
    const reason = new Error('navigated away')
    const items = createItemsClient('http://api.test', { fetch })
    const signal = AbortSignal.abort(reason)
    await expect(items.list({}, { signal })).rejects.toBe(reason)
    await expect(items.create(movie, { signal })).rejects.toBe(reason)
    expect(sent).toEqual([])
  })

  it('rejects with the reason also when the fetch does not take signals', async () => {
    const controller = new AbortController()
    const reason = new DOMException('too slow', 'TimeoutError')
    // An in-process app's `request`, say: it answers whatever the signal says.
    const fetch: Fetch = async () => {
      controller.abort(reason)
      return Response.json([stored])
    }
    const items = createItemsClient('http://api.test', { fetch })
    await expect(items.list({}, { signal: controller.signal })).rejects.toBe(reason)
    await expect(items.read('tt1', { signal: controller.signal })).rejects.toBe(reason)
  })
})
