import { describe, expect, it } from 'vitest'
import {
  negotiateEncoding,
  parseAcceptEncoding,
  varyWithAcceptEncoding,
} from './content-encoding.js'

describe('parseAcceptEncoding', () => {
  it.each<[string | undefined, string | null]>([
    [undefined, null],
    ['', null],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['deflate', null],
    ['identity', null],
    ['BR', 'br'],
    [' GZip ; Q=0.9 ', 'gzip'],
    ['gzip;q=0.8, br;q=0.5', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.000, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0', null],
    ['br;q=0, *', 'gzip'],
    ['*;q=0.5, gzip', 'gzip'],
    ['identity, gzip;q=0.5', null],
    ['identity;q=0.5, gzip', 'gzip'],
    ['identity;q=0, *;q=0', null],
    ['identity;q=1, br;q=1', 'br'],
    ['br;q=2, gzip', 'gzip'],
    ['br;q=abc, gzip;q=0.1', 'gzip'],
    ['br;q=0.1234, gzip;q=0.1', 'gzip'],
    ['br;q=1.0, gzip', 'br'],
    ['gzip, gzip;q=0', 'gzip'],
    ['br;level=5, gzip;q=0.9', 'br'],
    [',, ,br', 'br'],
  ])('%j: %s', (header, coding) => {
    expect(parseAcceptEncoding(header)).toBe(coding)
  })
})

describe('negotiateEncoding', () => {
  it('answers as parseAcceptEncoding, for the same header many times and for many headers', () => {
    for (let round = 0; round < 3; round++) {
      for (let n = 0; n < 100; n++) {
        const header = n % 2 === 0 ? `gzip;q=0.${n % 10}, br;q=0.${(n + 3) % 10}` : `gzip, x${n}`
        expect(negotiateEncoding(header)).toBe(parseAcceptEncoding(header))
      }
    }
    const long = `${'x-custom, '.repeat(40)}gzip`
    expect([negotiateEncoding(long), negotiateEncoding(long)]).toEqual(['gzip', 'gzip'])
    expect(negotiateEncoding(undefined)).toBeNull()
  })
})

describe('varyWithAcceptEncoding', () => {
  it('adds Accept-Encoding after what the answer already varies on', () => {
    expect(varyWithAcceptEncoding(undefined)).toBe('Accept-Encoding')
    expect(varyWithAcceptEncoding('Origin')).toBe('Origin, Accept-Encoding')
  })
})
