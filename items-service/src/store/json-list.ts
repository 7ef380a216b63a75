const open = Buffer.from('[')
const comma = Buffer.from(',')
const close = Buffer.from(']')

/**
 * Joins items that are already serialised into one JSON array, copying each once and
 * serialising none of them again.
 */
export function joinJsonArray(items: Iterable<Uint8Array>): Buffer {
  const parts: Uint8Array[] = [open]
  for (const item of items) {
    if (parts.length > 1) parts.push(comma)
    parts.push(item)
  }
  parts.push(close)
  return Buffer.concat(parts)
}
