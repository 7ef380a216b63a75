import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Tagged } from '../conditional-get.js'

/** A content coding a response can be sent in. */
export type ContentCoding = 'br' | 'gzip'

export type Encoders = Record<ContentCoding, (bytes: Uint8Array) => Uint8Array>

/**
 * Tagged bytes as sent: compressed ones have a tag of their own, and the headers say how (the
 * same object for every response in one coding).
 */
export type Compressed = { tagged: Tagged; headers: Readonly<Record<string, string>> }

/** The headers of each coding, made once: every response carries `Vary: Accept-Encoding`. */
const codingHeaders = {
  identity: { vary: 'Accept-Encoding' },
  br: { vary: 'Accept-Encoding', 'content-encoding': 'br' },
  gzip: { vary: 'Accept-Encoding', 'content-encoding': 'gzip' },
} as const

/**
 * Levels chosen by measure, on a 0.96 MB list of 10,000 items (`_id`, `id`, `name`, `genre`):
 * brotli quality 4 takes 7 ms for 11.9% of the size, 5 takes 14 ms for 10.6%, 6: 15 ms for
 * 10.3%, 7: 26 ms, 9: 68 ms, 11: 1.7 s; gzip level 4 takes 5 ms for 11.6%, 6: 10 ms for 10.7%,
 * 9: 41 ms for 10.2%. The levels past brotli 5 and gzip 6 save 3-5% of the bytes for 12-320%
 * more time; the ones below send 8-12% more bytes.
 */
export const defaultEncoders: Encoders = {
  br: (bytes) =>
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
  gzip: (bytes) => gzipSync(bytes, { level: 6 }),
}

/** The strong tag of `etag`'s bytes in `coding`: `"abc-5"` becomes `"abc-5-br"`. */
export function codedTag(etag: string, coding: ContentCoding): string {
  return `${etag.slice(0, -1)}-${coding}"`
}

/** A weight (RFC 9110 §12.4.2): 0 to 1 with at most three decimals. */
const qValue = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/** The weight of each coding an `Accept-Encoding` header names (lower case), `*` included. */
function weightsOf(header: string): Map<string, number> {
  const weights = new Map<string, number>()
  for (const element of header.split(',')) {
    const [name = '', ...params] = element.split(';')
    const coding = name.trim().toLowerCase()
    if (coding === '') continue
    let weight = 1
    for (const param of params) {
      const [key = '', value = ''] = param.split('=')
      if (key.trim().toLowerCase() !== 'q') continue
      weight = qValue.test(value.trim()) ? Number(value) : Number.NaN
    }
    // A weight that is not one says nothing: the element is left out. The first mention counts.
    if (!Number.isNaN(weight) && !weights.has(coding)) weights.set(coding, weight)
  }
  return weights
}

/**
 * The coding to send a response in, from the request's `Accept-Encoding` (RFC 9110 §12.5.3):
 * br or gzip, whichever has the higher weight, br when they are equal; null for none. `q=0`
 * refuses a coding, `*` weighs every coding not named, names are case-insensitive and `x-gzip`
 * is gzip. Identity is what is left: no header, nothing acceptable, or identity named with a
 * higher weight than either. A header that refuses identity too still gets identity.
 */
export function parseAcceptEncoding(header: string | undefined): ContentCoding | null {
  if (header === undefined) return null
  const weights = weightsOf(header)
  const any = weights.get('*')
  const br = weights.get('br') ?? any ?? 0
  const gzip = weights.get('gzip') ?? weights.get('x-gzip') ?? any ?? 0
  const identity = weights.get('identity') ?? any ?? 0
  const best = Math.max(br, gzip)
  if (best === 0 || identity > best) return null
  return br >= gzip ? 'br' : 'gzip'
}

// Clients send a handful of distinct headers (one per browser and version), so the last few
// parses are kept: a polled read then costs one map lookup instead of a split per request.
// Bounded in count and length, so that odd headers cannot make it hold much.
const rememberedAtMost = 32
const rememberedLengthAtMost = 200

/**
 * Compressed forms of tagged bytes (a list polled by many), each made once per tag and coding,
 * on first demand, and kept until the tag changes: memory holds one set at most. Keyed by tag
 * alone, so any store works whose tag names its bytes; a request still holding an older tag is
 * answered right, its forms being made again when next asked for.
 */
export class Compression {
  readonly #encoders: Encoders
  readonly #negotiated = new Map<string, ContentCoding | null>()
  #etag = ''
  #made: Partial<Record<ContentCoding, Compressed>> = {}
  /** The last bytes sent as they are, so that polls of one list make nothing new. */
  #plain: Compressed | undefined
  #count = 0

  constructor(encoders: Encoders = defaultEncoders) {
    this.#encoders = encoders
  }

  /**
   * `tagged` as sent to a client whose `Accept-Encoding` is `acceptEncoding`: br or gzip when
   * it takes one, with the tag of those bytes and `Content-Encoding`; `Vary: Accept-Encoding`
   * either way, so that caches keep each form apart.
   */
  of(tagged: Tagged, acceptEncoding: string | undefined): Compressed {
    const coding = this.#negotiate(acceptEncoding)
    if (coding === null) {
      if (this.#plain?.tagged.etag !== tagged.etag || this.#plain.tagged.body !== tagged.body) {
        this.#plain = { tagged, headers: codingHeaders.identity }
      }
      return this.#plain
    }
    if (tagged.etag !== this.#etag) {
      this.#etag = tagged.etag
      this.#made = {}
    }
    let made = this.#made[coding]
    if (made === undefined) {
      const body = this.#encoders[coding](tagged.body)
      made = {
        tagged: { body, etag: codedTag(tagged.etag, coding) },
        headers: codingHeaders[coding],
      }
      this.#made[coding] = made
      this.#count += 1
    }
    return made
  }

  /** How many compressed forms were made so far. */
  get made(): number {
    return this.#count
  }

  #negotiate(header: string | undefined): ContentCoding | null {
    if (header === undefined) return null
    const known = this.#negotiated.get(header)
    if (known !== undefined) return known
    const coding = parseAcceptEncoding(header)
    if (header.length > rememberedLengthAtMost) return coding
    if (this.#negotiated.size >= rememberedAtMost) this.#negotiated.clear()
    this.#negotiated.set(header, coding)
    return coding
  }
}
