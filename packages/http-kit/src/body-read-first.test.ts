import { describe, expect, it } from 'vitest'
import { withBodyReadFirst } from './body-read-first.js'

const encoder = new TextEncoder()

/**
 * A POST whose body arrives in these chunks, then ends (or breaks off), with the length its
 * client declared (by default one past any limit below).
 */
function posted(chunks: string[], { breaksOff = false, length = 999 } = {}): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      if (breaksOff) controller.error(new Error('the client went away'))
      else controller.close()
    },
  })
  // Node takes a streamed body only with `duplex`, which the DOM's RequestInit does not name.
  const init: RequestInit & { duplex: 'half' } = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(length) },
    body,
    duplex: 'half',
  }
  return new Request('http://worker.test/items', init)
}

describe('withBodyReadFirst', () => {
  it('hands on a body that came in several chunks whole, in order', async () => {
    const whole = await withBodyReadFirst(posted(['{"id":', '"tt1",', '"title":"A"}']), 100)
    expect(await whole?.text()).toBe('{"id":"tt1","title":"A"}')
    expect(whole?.method).toBe('POST')
    expect(whole?.headers.get('content-type')).toBe('application/json')
  })

  it('keeps one byte past the limit and reads the rest to its end', async () => {
    const whole = await withBodyReadFirst(posted(['0123', '4567', '89']), 5)
    expect(await whole?.text()).toBe('012345')
  })

  it('drops the length the client gave: the body in memory has its own', async () => {
    const whole = await withBodyReadFirst(posted(['{}']), 100)
    expect(whole?.headers.get('content-length')).not.toBe('999')
  })

  it('answers null when the body breaks off', async () => {
    expect(await withBodyReadFirst(posted(['{"id":'], { breaksOff: true }), 100)).toBeNull()
  })

  it('reads a body declared within the limit in one go, the same way', async () => {
    const whole = await withBodyReadFirst(posted(['{"id":', '"tt1"}'], { length: 12 }), 100)
    expect(await whole?.text()).toBe('{"id":"tt1"}')
    expect(whole?.headers.get('content-type')).toBe('application/json')
    const cut = posted(['{"id":'], { breaksOff: true, length: 12 })
    expect(await withBodyReadFirst(cut, 100)).toBeNull()
  })

  it('hands on a request without a body as it is', async () => {
    const request = new Request('http://worker.test/items/tt1')
    expect(await withBodyReadFirst(request, 100)).toBe(request)
  })
})
