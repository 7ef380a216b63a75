import { describe, expect, it } from 'vitest'
import { ItemsApiError } from './items-api-error.js'
import { createItemsClient, type Fetch } from './items-client.js'

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
    const stored = [{ _id: '6740a1f2c3d4e5f6a7b8c9d0', ...movie }]
    const { fetch } = recordingFetch(() => Response.json(stored, { status: 201 }))
    await expect(createItemsClient('http://api.test', { fetch }).create(movie)).resolves.toEqual(
      stored,
    )
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

  it('passes the signal of a call on', async () => {
    const controller = new AbortController()
    let signal: AbortSignal | null | undefined
    const fetch: Fetch = async (_url, init) => {
      signal = init.signal
      return Response.json([])
    }
    await createItemsClient('http://api.test', { fetch }).list({ signal: controller.signal })
    expect(signal).toBe(controller.signal)
  })
})

describe('an error answer', () => {
  const failWith = (answer: () => Response) =>
    createItemsClient('http://api.test', { fetch: recordingFetch(answer).fetch })

  it('rejects with an ItemsApiError carrying the status and the JSON body', async () => {
    const body = {
      error: 'invalid request body',
      issues: [{ path: 'name', message: 'Too small' }],
    }
    const error = await failWith(() => Response.json(body, { status: 400 }))
      .create(movie)
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ name: 'ItemsApiError', status: 400, body })
    expect((error as ItemsApiError).message).toBe('invalid request body (name: Too small)')
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
