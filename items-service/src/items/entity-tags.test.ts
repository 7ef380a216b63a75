import { describe, expect, it } from 'vitest'
import { ifMatchHolds, noneMatchHits } from './entity-tags.js'

describe('noneMatchHits', () => {
  it('hits on the tag, on *, and on a list holding it, weak or not', () => {
    for (const header of ['"a1"', '*', ' * ', '"x", "a1"', 'W/"a1"', '"x",W/"a1" ']) {
      expect(noneMatchHits(header, '"a1"'), header).toBe(true)
    }
  })

  it('misses without the header, on another tag, and on the tag unquoted', () => {
    for (const header of [undefined, '', '"a2"', 'a1', '"x", "y"']) {
      expect(noneMatchHits(header, '"a1"'), String(header)).toBe(false)
    }
  })
})

describe('ifMatchHolds', () => {
  it('holds without the header, on the tag, on a list holding it, and on * when it exists', () => {
    for (const header of [undefined, '"a1"', '"x", "a1"', '*']) {
      expect(ifMatchHolds(header, '"a1"'), String(header)).toBe(true)
    }
  })

  it('fails on another tag, a weak tag, and any tag or * when nothing exists', () => {
    expect(ifMatchHolds('"a2"', '"a1"')).toBe(false)
    expect(ifMatchHolds('W/"a1"', '"a1"')).toBe(false)
    expect(ifMatchHolds('*', null)).toBe(false)
    expect(ifMatchHolds('"a1"', null)).toBe(false)
  })
})
