import { describe, expect, it } from 'vitest'
import { InvalidRequestError } from './invalid-request-error.js'
import { ItemsApiError } from './items-api-error.js'
import { createItemsClient } from './items-client.js'
import type { Fetch } from './request-headers.js'

type Sent = { url: string; method: string; headers: Record<string, string>; body: unknown }

/** A fetch that records each request and answers with the given response. */
function recordingFetch(answer: () => Response = () => Response.json([])) {
  const sent: Sent[] = []
  const fetch: Fetch = async (url, init) => {
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body
    const headers = Object.fromEntries(new Headers(init.headers))
    sent.push({ url, method: init.method ?? 'GET', headers, body })
    return answer()
  }
  return { fetch, sent }
}

const movie = { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }
const stored = { _id: '6740a1f2c3d4e5f6a7b8c9d0', ...movie }

/** What a call rejected with, for the assertions. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call was expected to fail'),
    (error: unknown) => error,
  )

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
      apiKey: 'k1',
      headers: { 'x-request-id': 'trace-1' },
    })
    await items.list()
    await items.create(movie)
    await items.remove('tt0111161')
    expect(sent.map(({ headers }) => headers)).toEqual([
      { 'x-request-id': 'trace-1' },
      { 'x-request-id': 'trace-1', 'x-apikey': 'k1', 'content-type': 'application/json' },
      { 'x-request-id': 'trace-1', 'x-apikey': 'k1' },
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
      apiKey: 'k1',
      headers: { 'x-request-id': 'trace-1', 'accept-language': 'fr' },
    })
    await items.list({}, { headers: { 'x-request-id': 'trace-2' } })
    await items.get('tt1', { headers: new Headers({ 'x-tenant': 'a' }) })
    await items.remove('tt1', { headers: [['x-apikey', 'not-this-one']], ifMatch: '*' })
    await items.list()
    expect(sent.map(({ headers }) => headers)).toEqual([
      { 'x-request-id': 'trace-2', 'accept-language': 'fr' },
      { 'x-request-id': 'trace-1', 'accept-language': 'fr', 'x-tenant': 'a' },
      { 'x-request-id': 'trace-1', 'accept-language': 'fr', 'x-apikey': 'k1', 'if-match': '*' },
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

describe('list and page', () => {
  it('send the query in the order given, encoded, leaving out undefined values', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', { fetch })
    await items.list({ genre: 'Drama', sort: '-name' })
    await items.list({ name: 'Amélie & co', year: undefined, 'a b': '1+1=2' })
    await items.list({})
    await items.page({ sort: 'name', limit: 20, cursor: 'WyI2NzQwIl0' })
    expect(sent.map(({ url }) => url)).toEqual([
      'http://api.test/items?genre=Drama&sort=-name',
      'http://api.test/items?name=Am%C3%A9lie%20%26%20co&a%20b=1%2B1%3D2',
      'http://api.test/items',
      'http://api.test/items?sort=name&limit=20&cursor=WyI2NzQwIl0',
    ])
  })

  it('read the next page’s cursor from the Link header, and none on the last page', async () => {
    const link = '</items?genre=Crime&limit=1&cursor=WyI2NzQwYTFmMiJd>; rel="next"'
    const answers = [
      Response.json([stored], { headers: { link } }),
      Response.json([{ ...stored, id: 'tt2' }]),
    ]
    const { fetch, sent } = recordingFetch(() => answers.shift() ?? Response.json([]))
    const items = createItemsClient('http://api.test', { fetch })
    const query = { genre: 'Crime', limit: 1 }
    const first = await items.page(query)
    expect(first).toEqual({ items: [stored], next: 'WyI2NzQwYTFmMiJd' })
    const second = await items.page({ ...query, cursor: first.next })
    expect(second).toEqual({ items: [{ ...stored, id: 'tt2' }] })
    expect('next' in second).toBe(false)
    expect(sent[1]?.url).toBe('http://api.test/items?genre=Crime&limit=1&cursor=WyI2NzQwYTFmMiJd')
  })
})

describe('read and conditional writes', () => {
  it('reads an item with its ETag', async () => {
    const etag = '"6740a1f2-9c1e07a4-2"'
    const { fetch } = recordingFetch(() => Response.json(stored, { headers: { etag } }))
    const items = createItemsClient('http://api.test', { fetch })
    await expect(items.read('tt0111161')).resolves.toEqual({ item: stored, etag })
  })

  it('refuses an answer without an ETag rather than give a tag that matches nothing', async () => {
    const { fetch } = recordingFetch(() => Response.json(stored))
    const error = await refusal(createItemsClient('http://api.test', { fetch }).read('tt0111161'))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ status: 200, message: expect.stringContaining('no ETag') })
  })

  it('sends ifMatch as If-Match with updates and removes', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', { fetch })
    await items.update('tt0111161', { genre: 'Crime' }, { ifMatch: '"a-1"' })
    await items.remove('tt0111161', { ifMatch: '*' })
    await items.remove('tt0111161')
    expect(sent.map(({ headers }) => headers['if-match'])).toEqual(['"a-1"', '*', undefined])
  })

  it('rejects a stale tag’s 412 with an ItemsApiError', async () => {
    const stale = { error: "item 'tt0111161' does not match If-Match" }
    const { fetch } = recordingFetch(() => Response.json(stale, { status: 412 }))
    const items = createItemsClient('http://api.test', { fetch })
    const error = await refusal(items.update('tt0111161', { genre: 'Crime' }, { ifMatch: '"a"' }))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ status: 412, body: stale, message: stale.error })
  })
})

describe('an id no URL can carry', () => {
  it.each([
    ['', /must not be empty/],
    ['.', /cannot hold \. or \.\./],
    ['..', /cannot hold \. or \.\./],
    ['\ud800', /lone surrogate/],
    ['a\udc00b', /lone surrogate/],
  ])('%j is refused before any request, naming it', async (id, reason) => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', { fetch })
    for (const call of [
      () => items.get(id),
      () => items.read(id),
      () => items.update(id, { genre: 'Crime' }),
      () => items.remove(id, { ifMatch: '*' }),
    ]) {
      const error = await refusal(call())
      expect(error).toBeInstanceOf(InvalidRequestError)
      expect(error).toBeInstanceOf(ItemsApiError)
      expect(error).toMatchObject({ name: 'InvalidRequestError', status: 0 })
      expect((error as Error).message).toContain(`item id ${JSON.stringify(id)}`)
      expect((error as Error).message).toMatch(reason)
    }
    expect(sent).toEqual([])
  })

  it('passes an id with a surrogate pair, which is well-formed', async () => {
    const { fetch, sent } = recordingFetch(() => Response.json(stored))
    await createItemsClient('http://api.test', { fetch }).get('🎬 1')
    expect(sent[0]?.url).toBe('http://api.test/items/%F0%9F%8E%AC%201')
  })

  it('does not read the change feed as the item events, but updates and removes it', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', { fetch })
    await expect(items.get('events')).rejects.toThrow(/change feed/)
    await expect(items.read('events')).rejects.toBeInstanceOf(InvalidRequestError)
    await items.remove('events')
    expect(sent.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'DELETE http://api.test/items/events',
    ])
  })

  it('refuses a query value that is not well-formed, naming the parameter', async () => {
    const { fetch, sent } = recordingFetch()
    const error = await refusal(
      createItemsClient('http://api.test', { fetch }).list({ a: '\udfff' }),
    )
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as Error).message).toMatch(/query parameter "a"/)
    expect(sent).toEqual([])
  })
})

describe('an error answer', () => {
  const failWith = (answer: () => Response) =>
    createItemsClient('http://api.test', { fetch: recordingFetch(answer).fetch })

  it('rejects with an ItemsApiError carrying the status and the JSON body', async () => {
    const body = {
      error: 'invalid request body',
      issues: [{ path: 'name', message: 'Too small: expected string to have >=1 characters' }],
    }
    const error = await refusal(failWith(() => Response.json(body, { status: 400 })).create(movie))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ name: 'ItemsApiError', status: 400, body })
    expect((error as ItemsApiError).message).toBe(
      'invalid request body (name: Too small: expected string to have >=1 characters)',
    )
  })

  it('names the status when the body is not the service’s', async () => {
    const page = () =>
      new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' })
    await expect(failWith(page).list()).rejects.toMatchObject({
      status: 502,
      body: { error: '502 Bad Gateway' },
      message: '502 Bad Gateway',
    })
    const other = () => Response.json({ message: 'nope' }, { status: 500 })
    await expect(failWith(other).list()).rejects.toMatchObject({ body: { error: '500' } })
  })
})

describe('a 2xx that is not JSON', () => {
  const answering = (answer: () => Response) =>
    createItemsClient('http://api.test', { fetch: recordingFetch(answer).fetch })

  it('is an ItemsApiError of its status that names what it is, unread', async () => {
    let cancelled = false
    const stream = new ReadableStream({
      cancel: () => {
        cancelled = true
      },
    })
    const portal = () =>
      new Response(stream, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } })
    const error = await refusal(answering(portal).list())
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({
      status: 200,
      message: '200: the answer is text/html; charset=utf-8, not JSON',
    })
    expect(cancelled).toBe(true)
  })

  it('is an ItemsApiError, not a SyntaxError, when the JSON is cut short', async () => {
    const broken = () =>
      new Response('[{"_id":', { headers: { 'content-type': 'application/json' } })
    const error = await refusal(answering(broken).get('tt0111161'))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ status: 200, message: '200: the answer is not valid JSON' })
    // Bytes get no Content-Type of their own: the body is tried as JSON.
    const bytes = new TextEncoder().encode('<html>')
    const untyped = () => new Response(bytes, { status: 201, statusText: 'Created' })
    await expect(answering(untyped).create(movie)).rejects.toMatchObject({
      status: 201,
      message: '201 Created: the answer is not valid JSON',
    })
  })
})
