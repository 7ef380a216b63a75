import { describe, expect, it } from 'vitest'
import {
  bodyDeadlineMs,
  type UnreadBody,
  unreadBodyResponse,
  withBodyReadFirst,
} from './body-read-first.js'

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

/** The request handed on; fails the test when the body was not read. */
function handedOn(result: Request | UnreadBody): Request {
  expect(result).toBeInstanceOf(Request)
  return result as Request
}

/** A POST whose body sends one chunk and then nothing more, its connection kept open. */
function stalled(): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"id":'))
    },
  })
  const init: RequestInit & { duplex: 'half' } = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': '12' },
    body,
    duplex: 'half',
  }
  return new Request('http://worker.test/items', init)
}

describe('withBodyReadFirst', () => {
  it('hands on a body that came in several chunks whole, in order', async () => {
    const whole = handedOn(
      await withBodyReadFirst(posted(['{"id":', '"tt1",', '"title":"A"}']), 100),
    )
    expect(await whole.text()).toBe('{"id":"tt1","title":"A"}')
    expect(whole.method).toBe('POST')
    expect(whole.headers.get('content-type')).toBe('application/json')
  })

  it('keeps one byte past the limit and reads the rest to its end', async () => {
    const whole = handedOn(await withBodyReadFirst(posted(['0123', '4567', '89']), 5))
    expect(await whole.text()).toBe('012345')
  })

  it('drops the length the client gave: the body in memory has its own', async () => {
    const whole = handedOn(await withBodyReadFirst(posted(['{}']), 100))
    expect(whole.headers.get('content-length')).not.toBe('999')
  })

  it('answers cut off when the body breaks off', async () => {
    const cut = posted(['{"id":'], { breaksOff: true })
    expect(await withBodyReadFirst(cut, 100)).toBe('cut off')
  })

  it('reads a body declared within the limit in one go, the same way', async () => {
    const whole = handedOn(
      await withBodyReadFirst(posted(['{"id":', '"tt1"}'], { length: 12 }), 100),
    )
    expect(await whole.text()).toBe('{"id":"tt1"}')
    expect(whole.headers.get('content-type')).toBe('application/json')
    const cut = posted(['{"id":'], { breaksOff: true, length: 12 })
    expect(await withBodyReadFirst(cut, 100)).toBe('cut off')
  })

  it('hands on a request without a body as it is', async () => {
    const request = new Request('http://worker.test/items/tt1')
    expect(await withBodyReadFirst(request, 100)).toBe(request)
  })
  it('answers late for a body that has not all arrived within the deadline', async () => {
    const started = performance.now()
    expect(await withBodyReadFirst(stalled(), 100, 50)).toBe('late')
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('hands on a body that arrives within the deadline', async () => {
    const whole = handedOn(await withBodyReadFirst(posted(['{"id":', '"tt1"}']), 100, 5_000))
    expect(await whole.text()).toBe('{"id":"tt1"}')
  })
})

describe('bodyDeadlineMs', () => {
  it('takes BODY_TIMEOUT_MS by the settings rule, and the default otherwise', () => {
    expect(bodyDeadlineMs('1000')).toBe(1000)
    expect(bodyDeadlineMs(' 600000 ')).toBe(600_000)
    for (const other of [undefined, '', ' ', '0', '-5', '1.5', 'soon', '600001', 42]) {
      expect(bodyDeadlineMs(other), String(other)).toBe(30_000)
    }
  })
})

describe('unreadBodyResponse', () => {
  it('answers a late body 408 as the app does on Node, with an id and nosniff', async () => {
    const request = new Request('http://worker.test/items', {
      method: 'POST',
      headers: { 'x-request-id': 'slow-1' },
    })
    const response = unreadBodyResponse(request, 'late', 1_500)
    expect(response.status).toBe(408)
    expect(await response.json()).toEqual({ error: 'the request body did not arrive within 1.5 s' })
    expect(response.headers.get('x-request-id')).toBe('slow-1')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('answers a body that broke off 400', async () => {
    const response = unreadBodyResponse(new Request('http://worker.test/items'), 'cut off', 1_000)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'request body was cut off' })
  })
})
