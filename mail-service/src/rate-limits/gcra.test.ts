import { describe, expect, it } from 'vitest'
import { gcraGiveBack, gcraTake, intervalOf } from './gcra.js'

const threePerHour = { count: 3, windowMs: 3_600_000 }

describe('gcraTake', () => {
  it('fits the whole limit at once in an empty bucket, then one send an interval', () => {
    expect(intervalOf(threePerHour)).toBe(1_200_000)
    let tat: number | undefined
    for (const expected of [1_200_000, 2_400_000, 3_600_000]) {
      const decision = gcraTake(tat, threePerHour, 0)
      expect(decision).toEqual({ admitted: true, tat: expected })
      tat = decision.admitted ? decision.tat : tat
    }
    expect(gcraTake(tat, threePerHour, 0)).toEqual({ admitted: false, retryAfterMs: 1_200_000 })
    expect(gcraTake(tat, threePerHour, 1_200_000)).toEqual({ admitted: true, tat: 4_800_000 })
  })

  it('never lets more than the limit through in one window, however the sends come', () => {
    for (const spacing of [0, 1, 1_000, 599_999, 1_199_999, 1_200_000, 2_000_000]) {
      let tat: number | undefined
      const admitted: number[] = []
      for (let at = 0; at < 3_600_000; at += Math.max(spacing, 1)) {
        const decision = gcraTake(tat, threePerHour, at)
        if (decision.admitted) {
          tat = decision.tat
          admitted.push(at)
        }
        if (spacing === 0 && at > 10) break
      }
      // Three at once, then one every 20 minutes: at most 3 + 2 in the first hour of a burst.
      expect(admitted.length, `spacing ${spacing}`).toBeLessThanOrEqual(5)
      for (let n = 3; n < admitted.length; n += 1) {
        expect((admitted[n] as number) - (admitted[n - 3] as number)).toBeGreaterThanOrEqual(
          1_200_000,
        )
      }
    }
  })

  it('costs the same whatever it has counted: one number in, one number out', () => {
    const busy = { count: 999_999, windowMs: 3_600_000 }
    let tat: number | undefined
    for (let n = 0; n < 20_000; n += 1) {
      const decision = gcraTake(tat, busy, n)
      expect(decision.admitted).toBe(true)
      if (decision.admitted) tat = decision.tat
    }
    expect(typeof tat).toBe('number')
  })
})

describe('gcraGiveBack', () => {
  it('returns one interval, and empties the bucket once nothing is left', () => {
    expect(gcraGiveBack(3_600_000, threePerHour, 0, 0)).toBe(2_400_000)
    expect(gcraGiveBack(1_200_000, threePerHour, 0, 0)).toBeUndefined()
    expect(gcraGiveBack(undefined, threePerHour, 0, 0)).toBeUndefined()
  })

  it('returns nothing once the send’s interval has passed', () => {
    // Taken at 0, its interval over at 1_200_000: the TAT may be later sends' alone.
    expect(gcraGiveBack(4_000_000, threePerHour, 0, 1_199_999)).toBe(2_800_000)
    expect(gcraGiveBack(4_000_000, threePerHour, 0, 1_200_000)).toBe(4_000_000)
  })
})
