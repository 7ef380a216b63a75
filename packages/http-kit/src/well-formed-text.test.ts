import { describe, expect, it } from 'vitest'
import { findMalformedText, malformedText } from './well-formed-text.js'

describe('findMalformedText', () => {
  it('finds nothing in well-formed text, pairs beyond the BMP included', () => {
    expect(findMalformedText({ id: '🎬', name: 'Amélie', tags: ['\ud83c\udf7f'], n: 1 })).toEqual(
      [],
    )
  })

  it('names every lone surrogate by its dotted path, in values and in field names', () => {
    expect(
      findMalformedText({ id: 'lone\ud800', cast: [{ lead: '\udfff' }], 'n\ud800': 1 }),
    ).toEqual([
      { path: 'id', message: malformedText.value },
      { path: 'cast.0.lead', message: malformedText.value },
      { path: 'n\\ud800', message: malformedText.fieldName },
    ])
  })

  it('walks any depth without overflowing the stack', () => {
    let deep: unknown = '\ud800'
    for (let depth = 0; depth < 200_000; depth += 1) deep = [deep]
    expect(findMalformedText({ deep })).toHaveLength(1)
  })

  it('names at most 20 strings', () => {
    expect(findMalformedText(Array.from({ length: 1000 }, () => '\ud800'))).toHaveLength(20)
  })
})
