import { describe, expect, it } from 'vitest'
import { nextCursor } from './link-header.js'

describe('nextCursor', () => {
  it('reads the cursor of the rel="next" link', () => {
    const link = '</items?genre=Crime&limit=20&cursor=WyI2NzQwYTFmMiJd>; rel="next"'
    expect(nextCursor(link)).toBe('WyI2NzQwYTFmMiJd')
  })

  it('finds next among other links and relations, quoted or not, in any case', () => {
    const link =
      '</items?limit=2>; rel="first", </items?limit=2&cursor=abc>; title="x, y"; REL="prefetch Next"'
    expect(nextCursor(link)).toBe('abc')
    expect(nextCursor('<https://api.test/v1/items?cursor=a%2Db&limit=2>;rel=next')).toBe('a-b')
  })

  it('is undefined on the last page: no header, no next link, or one without a cursor', () => {
    expect(nextCursor(null)).toBeUndefined()
    expect(nextCursor('')).toBeUndefined()
    expect(nextCursor('</items?cursor=abc>; rel="prev"')).toBeUndefined()
    expect(nextCursor('</items?limit=2>; rel="next"')).toBeUndefined()
  })
})
