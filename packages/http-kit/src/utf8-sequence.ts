/**
 * The length of the well-formed UTF-8 sequence that starts at `at`, or 0 when the bytes there are
 * not one (a stray continuation byte, a sequence cut short, an overlong form, an encoded
 * surrogate, a code point beyond U+10FFFF): the table of well-formed sequences of Unicode §3.9.
 * @example utf8SequenceAt(new TextEncoder().encode('é'), 0) // 2
 */
export function utf8SequenceAt(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] as number
  if (lead < 0x80) return 1
  const [length, low, high] = secondByteRange(lead)
  if (length === 0) return 0
  const second = bytes[at + 1]
  if (second === undefined || second < low || second > high) return 0
  for (let next = 2; next < length; next += 1) {
    const byte = bytes[at + next]
    if (byte === undefined || byte < 0x80 || byte > 0xbf) return 0
  }
  return length
}

/** For a lead byte: the sequence's length, and the range its second byte must be in. */
function secondByteRange(lead: number): [length: number, low: number, high: number] {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf]
  if (lead === 0xe0) return [3, 0xa0, 0xbf]
  // 0xed 0xa0-0xbf would encode a UTF-16 surrogate.
  if (lead === 0xed) return [3, 0x80, 0x9f]
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf]
  if (lead === 0xf0) return [4, 0x90, 0xbf]
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf]
  if (lead === 0xf4) return [4, 0x80, 0x8f]
  return [0, 0, 0]
}
