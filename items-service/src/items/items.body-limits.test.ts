import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../../test/support/test-app.js'
import { maxItemBodyBytes } from './max-item-body-bytes.js'

/** An item whose JSON is exactly `bytes` long, padded with an extra field. */
function itemOfSize(bytes: number): string {
  const bare = JSON.stringify({ ...movies.godfather, pad: '' })
  return JSON.stringify({ ...movies.godfather, pad: 'x'.repeat(bytes - bare.length) })
}

/** A body sent in chunks without Content-Length, as a streaming client does. */
function chunked(text: string): { body: ReadableStream<Uint8Array>; duplex: 'half' } {
  const bytes = new TextEncoder().encode(text)
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 8192) controller.enqueue(bytes.slice(at, at + 8192))
      controller.close()
    },
  })
  return { body, duplex: 'half' }
}

describe('item bodies and their size', () => {
  const api = useTestApp()
  const json = { 'content-type': 'application/json' }

  it('accepts a body of exactly 64 KiB', async () => {
    const response = await api().request('/items', {
      method: 'POST',
      headers: json,
      body: itemOfSize(maxItemBodyBytes),
    })
    expect(response.status).toBe(201)
  })

  it('answers 413 for a body one byte over 64 KiB with Content-Length, changing nothing', async () => {
    await api().seed(movies.shawshank)
    const body = itemOfSize(maxItemBodyBytes + 1)
    await api().expectRefused(
      () =>
        api().request('/items', {
          method: 'POST',
          headers: { ...json, 'content-length': String(body.length) },
          body,
        }),
      413,
    )
  })

  it('answers 413 for an oversized chunked body without Content-Length, changing nothing', async () => {
    await api().seed(movies.shawshank)
    await api().expectRefused(
      () =>
        api().request('/items', {
          method: 'POST',
          headers: json,
          ...chunked(itemOfSize(maxItemBodyBytes + 1)),
        }),
      413,
    )
    await api().expectRefused(
      () =>
        api().request(`/items/${movies.shawshank.id}`, {
          method: 'PUT',
          headers: json,
          ...chunked(JSON.stringify({ name: 'x'.repeat(2 * maxItemBodyBytes) })),
        }),
      413,
    )
  })

  it('accepts a small chunked body without Content-Length', async () => {
    const response = await api().request('/items', {
      method: 'POST',
      headers: json,
      ...chunked(JSON.stringify(movies.godfather)),
    })
    expect(response.status).toBe(201)
  })
})

describe('item bodies and their content type', () => {
  const api = useTestApp()
  const body = JSON.stringify(movies.godfather)

  it.each([
    ['no content type', {}],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['application/jsonp', { 'content-type': 'application/jsonp' }],
    ['a +json format of its own', { 'content-type': 'application/merge-patch+json' }],
    ['another +json suffix', { 'content-type': 'application/vnd.a+b+json' }],
  ])('answers 415 to POST with %s, changing nothing', async (_, headers) => {
    await api().seed(movies.shawshank)
    await api().expectRefused(() => api().request('/items', { method: 'POST', headers, body }), 415)
  })

  it('answers 415 to PUT with text/plain, changing nothing', async () => {
    await api().seed(movies.shawshank)
    await api().expectRefused(
      () =>
        api().request(`/items/${movies.shawshank.id}`, {
          method: 'PUT',
          headers: { 'content-type': 'text/plain' },
          body: '{"name":"x"}',
        }),
      415,
    )
  })
})
