/**
 * Whether an `If-None-Match` header names `etag`: `*`, or a list holding it. The comparison is
 * weak (RFC 9110 §13.1.2): `W/"x"` matches `"x"`.
 */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  // A client sends back the one tag it was given: answered without taking the header apart.
  if (header === etag) return true
  if (header.trim() === '*') return true
  return listedTags(header).some((tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === etag)
}

/**
 * Whether an `If-Match` header lets a write go ahead on a resource whose tag is `etag` (null:
 * it does not exist). The comparison is strong (RFC 9110 §13.1.1): a weak tag never matches.
 */
export function ifMatchHolds(header: string | undefined, etag: string | null): boolean {
  if (header === undefined) return true
  if (etag === null) return false
  if (header.trim() === '*') return true
  return listedTags(header).includes(etag)
}

function listedTags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0)
}
