import { describe, expect, it } from 'vitest'
import { nextCursor } from './link-header.js'

describe('nextCursor', () => {
  it('reads the cursor of the rel="next" link', () => {
    const link = '</maillog?limit=20&cursor=6b06dcb204db9216be29afd5>; rel="next"'
    expect(nextCursor(link)).toBe('6b06dcb204db9216be29afd5')
  })

  it('finds next among other links and relations, quoted or not, in any case', () => {
    const link =
      '</maillog?limit=2>; rel="first", </maillog?limit=2&cursor=abc>; title="x, y"; REL="prefetch Next"'
    expect(nextCursor(link)).toBe('abc')
    expect(nextCursor('<https://mail.test/v1/maillog?cursor=a%2Db&limit=2>;rel=next')).toBe('a-b')
  })

  it('is undefined on the last page: no header, no next link, or one without a cursor', () => {
    expect(nextCursor(null)).toBeUndefined()
    expect(nextCursor('')).toBeUndefined()
    expect(nextCursor('</maillog?cursor=abc>; rel="prev"')).toBeUndefined()
    expect(nextCursor('</maillog?limit=2>; rel="next"')).toBeUndefined()
  })
})
