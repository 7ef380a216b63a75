import { describe, expect, it } from 'vitest'
import { SortableIdSequence } from './sortable-id.js'

describe('SortableIdSequence', () => {
  it('makes 24 lowercase hex characters, starting with the time in seconds like MongoDB', () => {
    const before = Math.floor(Date.now() / 1000)
    const id = new SortableIdSequence().next()
    expect(id).toMatch(/^[0-9a-f]{24}$/)
    const seconds = Number.parseInt(id.slice(0, 8), 16)
    expect(seconds).toBeGreaterThanOrEqual(before)
    expect(seconds).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
  })

  it('makes strictly increasing ids, many in the same second', () => {
    const ids = new SortableIdSequence()
    const made = Array.from({ length: 20_000 }, () => ids.next())
    const outOfOrder = made.filter((id, n) => n > 0 && id <= (made[n - 1] as string))
    expect(outOfOrder).toEqual([])
    expect(new Set(made).size).toBe(made.length)
  })

  it('continues after a later id it observed, such as one from a previous run', () => {
    const ids = new SortableIdSequence()
    const later = 'ffffff000000000000fffffe'
    ids.observe(later)
    const next = ids.next()
    expect(next > later).toBe(true)
    expect(next).toMatch(/^[0-9a-f]{24}$/)
    expect(ids.next() > next).toBe(true)
  })

  it('does not go back after observing an earlier id', () => {
    const ids = new SortableIdSequence()
    const first = ids.next()
    ids.observe('000000000000000000000001')
    expect(ids.next() > first).toBe(true)
  })

  it('carries across hex digits when it has to step past an observed id', () => {
    const ids = new SortableIdSequence()
    ids.observe('fffffff0ffffffffffffffff')
    expect(ids.next()).toBe('fffffff10000000000000000')
  })
})
