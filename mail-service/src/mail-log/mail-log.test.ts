import { describe, expect, it } from 'vitest'
import { isNoSpace } from './mail-log.js'

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
