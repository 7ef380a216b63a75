import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  Compression,
  type ContentCoding,
  codedTag,
  defaultEncoders,
  type Encoders,
  parseAcceptEncoding,
} from './compression.js'

const tagged = (text: string, etag: string) => ({ body: Buffer.from(text), etag })
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString()

/** Encoders that count their calls and mark their output, to see what was made when. */
function countingEncoders() {
  const calls: string[] = []
  const marking =
    (coding: string) =>
    (bytes: Uint8Array): Uint8Array => {
      calls.push(`${coding} ${text(bytes)}`)
      return Buffer.from(`${coding}:${text(bytes)}`)
    }
  const encoders: Encoders = { br: marking('br'), gzip: marking('gzip') }
  return { calls, encoders }
}

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

describe('Compression', () => {
  it('sends the bytes as they are to a client that takes no coding, varying on it', () => {
    const list = tagged('[]', '"a-1"')
    for (const header of [undefined, 'identity', 'deflate']) {
      expect(new Compression().of(list, header)).toEqual({
        tagged: list,
        headers: { vary: 'Accept-Encoding' },
      })
    }
  })

  it('gives each coding its own strong tag and says the coding', () => {
    expect(codedTag('"abc-5"', 'br')).toBe('"abc-5-br"')
    expect(codedTag('"abc-5"', 'gzip')).toBe('"abc-5-gzip"')
    const sent = new Compression().of(tagged('[]', '"abc-5"'), 'gzip, br')
    expect(sent.tagged.etag).toBe('"abc-5-br"')
    expect(sent.headers).toEqual({ vary: 'Accept-Encoding', 'content-encoding': 'br' })
  })

  it('makes each coding once per tag, and again only when the tag changes', () => {
    const { calls, encoders } = countingEncoders()
    const compression = new Compression(encoders)
    const first = tagged('[1]', '"a-1"')
    const br = compression.of(first, 'br').tagged
    for (let n = 0; n < 5; n++) {
      expect(compression.of(first, 'br').tagged).toBe(br)
      // A store may hand out a new buffer with the same tag (MongoDB): the tag decides.
      expect(compression.of(tagged('[1]', '"a-1"'), 'br').tagged.body).toBe(br.body)
    }
    compression.of(first, 'gzip')
    compression.of(first, 'gzip')
    expect(calls).toEqual(['br [1]', 'gzip [1]'])
    expect(text(compression.of(tagged('[1,2]', '"a-2"'), 'br').tagged.body)).toBe('br:[1,2]')
    expect(calls).toEqual(['br [1]', 'gzip [1]', 'br [1,2]'])
    expect(compression.made).toBe(3)
  })

  it('keeps only the current tag: going back to older bytes makes their form again', () => {
    const { calls, encoders } = countingEncoders()
    const compression = new Compression(encoders)
    compression.of(tagged('[1]', '"a-1"'), 'br')
    compression.of(tagged('[2]', '"a-2"'), 'br')
    expect(text(compression.of(tagged('[1]', '"a-1"'), 'br').tagged.body)).toBe('br:[1]')
    expect(calls).toHaveLength(3)
  })

  it('answers as parseAcceptEncoding, for the same header many times and for many headers', () => {
    const compression = new Compression(countingEncoders().encoders)
    const list = tagged('[]', '"a-1"')
    for (let round = 0; round < 3; round++) {
      for (let n = 0; n < 100; n++) {
        const header = n % 2 === 0 ? `gzip;q=0.${n % 10}, br;q=0.${(n + 3) % 10}` : `gzip, x${n}`
        const coding = compression.of(list, header).headers['content-encoding'] ?? null
        expect(coding).toBe(parseAcceptEncoding(header))
      }
    }
    const long = `${'x-custom, '.repeat(40)}gzip`
    expect(compression.of(list, long).headers['content-encoding']).toBe('gzip')
  })

  it('compresses with br and gzip to bytes that decompress to the original', () => {
    const body = Buffer.from(JSON.stringify(Array.from({ length: 200 }, (_, id) => ({ id }))))
    const decoders: Record<ContentCoding, (bytes: Uint8Array) => Buffer> = {
      br: brotliDecompressSync,
      gzip: gunzipSync,
    }
    for (const coding of ['br', 'gzip'] as const) {
      const packed = defaultEncoders[coding](body)
      expect(packed.byteLength).toBeLessThan(body.byteLength / 4)
      expect(decoders[coding](packed).equals(body)).toBe(true)
    }
  })
})
