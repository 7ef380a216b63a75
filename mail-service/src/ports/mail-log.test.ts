import { describe, expect, it } from 'vitest'
import { firstIdAt, idRangesBefore } from './mail-log.js'

describe('firstIdAt', () => {
  const newYear = Date.parse('2026-01-01T00:00:00Z')
  const secondsHex = (ms: number) => Math.floor(ms / 1000).toString(16)

  it('is the lowest id of the second the time starts', () => {
    expect(firstIdAt(new Date(newYear))).toBe(`${secondsHex(newYear)}${'0'.repeat(16)}`)
  })

  it('moves to the next second within one, so every lower id holds an earlier time', () => {
    expect(firstIdAt(new Date(newYear + 1))).toBe(`${secondsHex(newYear + 1000)}${'0'.repeat(16)}`)
  })

  it('refuses a date that is no time', () => {
    expect(() => firstIdAt(new Date(Number.NaN))).toThrow(RangeError)
  })
})

describe('idRangesBefore', () => {
  const inRanges = (id: string, time: Date) =>
    idRangesBefore(time).some(([start, end]) => (start === undefined || id >= start) && id < end)
  const earlierFormat = (ms: number) => `${ms.toString(16).padStart(12, '0')}0000deadbeef`
  const currentFormat = (ms: number) => `${Math.floor(ms / 1000).toString(16)}00000000000000000001`
  const cutoff = new Date('2026-01-01T00:00:00Z')

  it('covers ids of both formats made before the time, and none made after', () => {
    const before = Date.parse('2025-12-31T23:59:59Z')
    const after = Date.parse('2026-01-01T00:00:01Z')
    expect(inRanges(earlierFormat(before), cutoff)).toBe(true)
    expect(inRanges(currentFormat(before), cutoff)).toBe(true)
    expect(inRanges(earlierFormat(after), cutoff)).toBe(false)
    expect(inRanges(currentFormat(after), cutoff)).toBe(false)
  })
})
