import { describe, expect, it } from 'vitest'
import { continueAfterRecordId, isNoSpace, newRecordId } from './mail-log.js'

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

describe('continueAfterRecordId', () => {
  it('makes later ids sort after a stored one, even when the clock is behind it', () => {
    // Made an hour ahead of this clock, as by a process whose clock was later set back.
    const stored = `${(Date.now() + 3_600_000).toString(16).padStart(12, '0')}0007abcdef01`
    continueAfterRecordId(stored)
    const next = newRecordId()
    expect(next > stored).toBe(true)
  })

  it('ignores ids that are not its own kind', () => {
    continueAfterRecordId('not-a-record-id')
    expect(newRecordId()).toMatch(/^[0-9a-f]{24}$/)
  })
})

describe('isNoSpace', () => {
  it('knows a refusal for lack of space by its name', () => {
    const full = Object.assign(new Error('no space left to store the write'), {
      name: 'NoSpaceError',
    })
    expect(isNoSpace(full)).toBe(true)
    expect(isNoSpace(new Error('the store could not write'))).toBe(false)
    expect(isNoSpace('NoSpaceError')).toBe(false)
  })
})
