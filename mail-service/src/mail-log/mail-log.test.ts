import { describe, expect, it } from 'vitest'
import { newRecordId } from './mail-log.js'

describe('newRecordId', () => {
  it('sorts by creation time, also within one millisecond', () => {
    const ids = [newRecordId(1_000), newRecordId(1_000), newRecordId(1_000), newRecordId(2_000)]
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(4)
  })

  it('is 24 lowercase hex digits, like a MongoDB ObjectId', () => {
    expect(newRecordId()).toMatch(/^[0-9a-f]{24}$/)
  })
})
