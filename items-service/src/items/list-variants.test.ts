import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { ContentCoding } from './content-encoding.js'
import { codedTag, defaultEncoders, type Encoders, ListVariants } from './list-variants.js'

const listOf = (text: string, etag: string) => ({ body: Buffer.from(text), etag })

/** Encoders that count their calls and mark their output, to see what was made when. */
function countingEncoders() {
  const calls: string[] = []
  const marking =
    (coding: string) =>
    (bytes: Uint8Array): Uint8Array => {
      calls.push(`${coding} ${Buffer.from(bytes)}`)
      return Buffer.from(`${coding}:${Buffer.from(bytes)}`)
    }
  const encoders: Encoders = { br: marking('br'), gzip: marking('gzip') }
  return { calls, encoders }
}

describe('ListVariants', () => {
  it('answers the list itself when no coding is asked for', () => {
    const list = listOf('[]', '"a-1"')
    expect(new ListVariants().of(list, null)).toBe(list)
  })

  it('gives each coding its own strong tag', () => {
    expect(codedTag('"abc-5"', 'br')).toBe('"abc-5-br"')
    expect(codedTag('"abc-5"', 'gzip')).toBe('"abc-5-gzip"')
    const variants = new ListVariants()
    expect(variants.of(listOf('[]', '"abc-5"'), 'br')).toMatchObject({
      etag: '"abc-5-br"',
      coding: 'br',
    })
  })

  it('makes each coding once per tag, and again only when the tag changes', () => {
    const { calls, encoders } = countingEncoders()
    const variants = new ListVariants(encoders)
    const first = listOf('[1]', '"a-1"')
    const br = variants.of(first, 'br')
    for (let n = 0; n < 5; n++) {
      expect(variants.of(first, 'br')).toBe(br)
      // A store may hand out a new buffer with the same tag (MongoDB): the tag decides.
      expect(variants.of(listOf('[1]', '"a-1"'), 'br').body).toBe(br.body)
    }
    variants.of(first, 'gzip')
    variants.of(first, 'gzip')
    expect(calls).toEqual(['br [1]', 'gzip [1]'])
    const second = variants.of(listOf('[1,2]', '"a-2"'), 'br')
    expect(Buffer.from(second.body).toString()).toBe('br:[1,2]')
    expect(calls).toEqual(['br [1]', 'gzip [1]', 'br [1,2]'])
    expect(variants.made).toBe(3)
  })

  it('keeps only the current tag: going back to an older list makes its variant again', () => {
    const { calls, encoders } = countingEncoders()
    const variants = new ListVariants(encoders)
    variants.of(listOf('[1]', '"a-1"'), 'br')
    variants.of(listOf('[2]', '"a-2"'), 'br')
    const again = variants.of(listOf('[1]', '"a-1"'), 'br')
    expect(Buffer.from(again.body).toString()).toBe('br:[1]')
    expect(calls).toHaveLength(3)
  })

  it('compresses with br and gzip to bytes that decompress to the list', () => {
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
