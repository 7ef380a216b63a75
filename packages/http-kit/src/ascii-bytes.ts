// Single bytes and short runs of ASCII, as the strict JSON check reads them.

const decoder = new TextDecoder()

/** A byte a number's text may hold (its form is checked as a whole). */
export function isNumberByte(byte: number | undefined): boolean {
  return (
    byte !== undefined &&
    ((byte >= 0x30 && byte <= 0x39) ||
      byte === 0x2d ||
      byte === 0x2b ||
      byte === 0x2e ||
      (byte | 0x20) === 0x65)
  )
}

/** The value of a hexadecimal digit's byte, or -1. */
export function hexDigit(byte: number | undefined): number {
  if (byte === undefined) return -1
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30
  const lower = byte | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1
}

/**
 * ASCII bytes as text: a short run by char codes, which costs less than a `TextDecoder` call for
 * the few bytes of a field name or a number.
 */
export function asciiText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > 64) return decoder.decode(bytes.subarray(start, end))
  let text = ''
  for (let at = start; at < end; at += 1) text += String.fromCharCode(bytes[at] as number)
  return text
}
