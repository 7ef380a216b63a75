import { describe, expect, it } from 'vitest'
import { backoffMs, retryAfterMs } from './retry-delay.js'

describe('backoffMs', () => {
  it('doubles from 500 ms up to 10 s, leaving out up to half at random', () => {
    const retries = [1, 2, 3, 4, 5, 6, 20]
    expect(retries.map((retry) => backoffMs(retry, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ])
    expect(retries.map((retry) => backoffMs(retry, () => 0))).toEqual([
      250, 500, 1000, 2000, 4000, 5000, 5000,
    ])
  })
})

describe('retryAfterMs', () => {
  const after = (value?: string) =>
    retryAfterMs(
      new Response(null, { headers: value === undefined ? {} : { 'retry-after': value } }),
      Date.parse('2026-11-25T12:00:00Z'),
    )

  it('reads seconds, and an HTTP date as the time until it', () => {
    expect(after('1197')).toBe(1_197_000)
    expect(after(' 0 ')).toBe(0)
    expect(after('Wed, 25 Nov 2026 12:00:30 GMT')).toBe(30_000)
    expect(after('Wed, 25 Nov 2026 11:00:00 GMT')).toBe(0)
  })

  it('is undefined without the header, or with one that does not read', () => {
    expect(after()).toBeUndefined()
    expect(after('soon')).toBeUndefined()
    expect(after('-5')).toBeUndefined()
  })
})
