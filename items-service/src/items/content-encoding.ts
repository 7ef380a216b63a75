/** A content coding an answer can be sent in; `null` stands for none (identity). */
export type ContentCoding = 'br' | 'gzip'

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
 * The coding to send an answer in, from the request's `Accept-Encoding` (RFC 9110 §12.5.3):
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
const remembered = new Map<string, ContentCoding | null>()
const rememberedAtMost = 32
const rememberedLengthAtMost = 200

/** `parseAcceptEncoding(header)`, remembered for the last few distinct short headers. */
export function negotiateEncoding(header: string | undefined): ContentCoding | null {
  if (header === undefined) return null
  const known = remembered.get(header)
  if (known !== undefined) return known
  const coding = parseAcceptEncoding(header)
  if (header.length > rememberedLengthAtMost) return coding
  if (remembered.size >= rememberedAtMost) remembered.clear()
  remembered.set(header, coding)
  return coding
}

/**
 * The `Vary` of an answer whose coding was negotiated: `Accept-Encoding` after what it already
 * varies on (`Origin`, when CORS allows only some origins), so that caches keep each apart.
 */
export function varyWithAcceptEncoding(vary: string | undefined): string {
  return vary === undefined ? 'Accept-Encoding' : `${vary}, Accept-Encoding`
}
