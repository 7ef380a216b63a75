// The same reading as the items client's: each client is a package of its own, with no
// dependency to share it through.

/** One `<target>; params` of a `Link` header; targets are percent-encoded, so hold no `>`. */
const linkValue = /<([^>]*)>([^<]*)/g
const relParameter = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i

/**
 * The `cursor` of the page a `Link` header names as `rel="next"`
 * (`</maillog?limit=2&cursor=6b06dcb204db9216be29afd5>; rel="next"`), or undefined when it
 * names none: the page was the last.
 */
export function nextCursor(link: string | null): string | undefined {
  if (!link) return undefined
  for (const [, target = '', parameters = ''] of link.matchAll(linkValue)) {
    const [, quoted, bare] = relParameter.exec(parameters) ?? []
    const relations = (quoted ?? bare ?? '').toLowerCase().split(/\s+/)
    if (!relations.includes('next')) continue
    // Any base will do: only the target's query is read.
    const cursor = new URL(target, 'http://base.invalid').searchParams.get('cursor')
    if (cursor !== null) return cursor
  }
  return undefined
}
