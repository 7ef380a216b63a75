import { describe, expect, it } from 'vitest'
import { reconnectDelayMs, retryAfterMs } from './reconnect-delay.js'

describe('reconnectDelayMs', () => {
  it('waits the base first, doubling for each failure in a row, up to the most', () => {
    const delays = [1, 2, 3, 4, 5, 6, 60].map((failures) =>
      reconnectDelayMs(failures, { baseMs: 2000, maxMs: 30_000 }),
    )
    expect(delays).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
  })

  it('waits at least what Retry-After asked for', () => {
    expect(reconnectDelayMs(1, { baseMs: 1000, maxMs: 30_000, retryAfterMs: 5000 })).toBe(5000)
    expect(reconnectDelayMs(4, { baseMs: 1000, maxMs: 30_000, retryAfterMs: 5000 })).toBe(8000)
  })
})

describe('retryAfterMs', () => {
  it('reads Retry-After seconds, and nothing else', () => {
    const of = (value?: string) =>
      retryAfterMs(
        new Response(null, { headers: value === undefined ? {} : { 'retry-after': value } }),
      )
    expect([of('5'), of(' 12 '), of(), of('soon'), of('Wed, 21 Oct 2026 07:28:00 GMT')]).toEqual([
      5000, 12_000, 0, 0, 0,
    ])
  })
})
