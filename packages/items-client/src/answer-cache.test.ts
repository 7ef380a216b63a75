import { describe, expect, it } from 'vitest'
import { AnswerCache } from './answer-cache.js'

const answer = (text: string, etag = `"${text.length}"`) => ({ etag, text, link: null })

describe('AnswerCache', () => {
  it('gives the answer kept for a path, the latest in place of the one before', () => {
    const cache = new AnswerCache()
    cache.keep('/items', answer('[]', '"a"'))
    cache.keep('/items', answer('[1]', '"b"'))
    expect(cache.get('/items')).toEqual(answer('[1]', '"b"'))
    expect(cache.get('/items?genre=Drama')).toBeUndefined()
  })

  it('keeps at most maxEntries answers, dropping the least recently used', () => {
    const cache = new AnswerCache({ maxEntries: 2, maxChars: 1000 })
    cache.keep('/a', answer('1'))
    cache.keep('/b', answer('2'))
    cache.get('/a')
    cache.keep('/c', answer('3'))
    expect([cache.get('/a'), cache.get('/b'), cache.get('/c')]).toEqual([
      answer('1'),
      undefined,
      answer('3'),
    ])
  })

  it('keeps at most maxChars of bodies, and no answer larger alone', () => {
    const cache = new AnswerCache({ maxEntries: 10, maxChars: 10 })
    cache.keep('/a', answer('12345'))
    cache.keep('/b', answer('1234'))
    cache.keep('/c', answer('123'))
    expect(cache.get('/a')).toBeUndefined()
    expect(cache.get('/b')).toEqual(answer('1234'))
    cache.keep('/huge', answer('12345678901'))
    expect(cache.get('/huge')).toBeUndefined()
    expect(cache.get('/c')).toEqual(answer('123'))
    // A larger answer in place of a path's kept one leaves none for it.
    cache.keep('/c', answer('x'.repeat(11)))
    expect(cache.get('/c')).toBeUndefined()
  })

  it('forgets the paths picked, or every path', () => {
    const cache = new AnswerCache()
    for (const path of ['/items', '/items?genre=Drama', '/items/tt1', '/items/tt2']) {
      cache.keep(path, answer(path))
    }
    cache.forget((path) => path.startsWith('/items?') || path === '/items/tt1')
    expect(cache.get('/items?genre=Drama')).toBeUndefined()
    expect(cache.get('/items/tt1')).toBeUndefined()
    expect(cache.get('/items/tt2')).toEqual(answer('/items/tt2'))
    cache.forget()
    expect(cache.get('/items')).toBeUndefined()
    expect(cache.get('/items/tt2')).toBeUndefined()
  })
})
