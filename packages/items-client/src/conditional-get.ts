import type { AnswerCache } from './answer-cache.js'
import { parseJson, readText } from './read-answer.js'

/**
 * A read's answer: its parsed body, the headers the calls read of it, and the response (a 304
 * when the body is the kept one).
 */
export type ReadAnswer<T> = {
  body: T
  etag: string | null
  link: string | null
  response: Response
}

/**
 * A `GET` of `path` through `cache`. When an answer of the path is kept and the caller sent no
 * `If-None-Match` of its own, the kept tag goes as one, and a 304 resolves to the kept answer,
 * as the 200 did; a 200 with an `ETag` is kept in place of the one before. A 304 to the
 * caller's own `If-None-Match` rejects, as an error status does: the client has nothing to
 * resolve it to. Without a cache it is a plain `GET`.
 */
export async function conditionalGet<T>(
  get: (headers: Headers) => Promise<Response>,
  path: string,
  headers: Headers,
  cache: AnswerCache | undefined,
): Promise<ReadAnswer<T>> {
  const kept = headers.has('if-none-match') ? undefined : cache?.get(path)
  if (kept) headers.set('if-none-match', kept.etag)
  const response = await get(headers)
  if (kept && response.status === 304) {
    await response.body?.cancel().catch(() => {})
    // Parsed anew each time: what a caller does to one result changes no other.
    return { body: JSON.parse(kept.text) as T, etag: kept.etag, link: kept.link, response }
  }
  const text = await readText(response)
  const body = parseJson<T>(text, response)
  const etag = response.headers.get('etag')
  const link = response.headers.get('link')
  if (cache && etag !== null) cache.keep(path, { etag, text, link })
  return { body, etag, link, response }
}
