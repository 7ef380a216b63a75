import type { IncomingMessage, RequestListener } from 'node:http'
import { corsPolicy, requestIdFor, requestLine } from '@movies-and-mail/http-kit'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { negotiateEncoding, varyWithAcceptEncoding } from '../items/content-encoding.js'
import { noneMatchHits } from '../items/entity-tags.js'
import type { CachedRead } from '../items/items.cached-reads.js'
import { type ListRepresentation, listVariants } from '../items/list-variants.js'
import type { CachedItems, TaggedJson } from '../store/item-store.js'

const dotSegment = /\/\.\.?(?:\/|$)/

export type CachedReadsOptions = {
  reads: readonly CachedRead[]
  /** The store's items in memory (`ItemStore.cached`). */
  cached: CachedItems
  /** As given to `createApp`. */
  corsOrigins: readonly string[]
  /** As given to `createApp`. */
  log: (line: string) => void
  /**
   * Paths the app routes ahead of the reads that a read's pattern would match too
   * (`/items/events` before `/items/{id}`): always the app's.
   */
  appPaths?: readonly string[]
}

/**
 * Puts the polled reads of a store that keeps its items' JSON in memory (`GET /items`,
 * `GET /items/<id>` of an item that exists, with their `ETag`, and 304 to an `If-None-Match`
 * that names it; the list compressed, from the same variants the app sends) in front of `app`,
 * the Hono app's Node listener, answered by node:http alone, at once. For an answer of a few
 * hundred bytes, the adapter's web `Request`/`Response` and Hono's dispatch cost more than the
 * answer (README › Performance).
 *
 * Nothing is defined twice: the routes come from the same table the Hono app serves
 * (`cachedReads`), matched by Hono's own router and checked by each route's own param schema;
 * the answer is made by the kit's helpers the app's middleware use (request id, CORS, log line),
 * and a test compares both paths request by request. Anything else (another method, a query,
 * a path to decode or with dot segments, a param the schema refuses, an unknown id) goes to
 * `app`. The front does not read `Host`, on which none of these answers depends; the adapter
 * would refuse a malformed one with 400, the front answers the read.
 * @example createServer(withCachedReads(listener, { reads: cachedReads, cached, corsOrigins, log }))
 */
export function withCachedReads(
  app: RequestListener,
  { reads, cached, corsOrigins, log, appPaths = [] }: CachedReadsOptions,
): RequestListener {
  const appsOwn = new Set(appPaths)
  const cors = corsPolicy({ origins: corsOrigins })
  // The router Hono itself tries first, and the fastest of its routers at matching.
  const router = new RegExpRouter<CachedRead>()
  // The document's `{id}` is Hono's `:id`.
  for (const read of reads) router.add('GET', read.route.path.replace(/{(\w+)}/g, ':$1'), read)
  // The entry `answer` matched, for its caller in the same turn: no object per request.
  let answered: CachedRead | undefined

  function answer(request: IncomingMessage): TaggedJson | null {
    const url = request.url ?? ''
    if (request.method !== 'GET' || url.includes('?') || url.includes('%')) return null
    // The adapter resolves `.` and `..` segments before the app routes the path.
    if (dotSegment.test(url) || appsOwn.has(url)) return null
    const [handlers, stash] = router.match('GET', url)
    const [matched] = handlers
    if (!matched || !stash) return null
    const [read, indexes] = matched as [CachedRead, Record<string, number>]
    const params: Record<string, string> = {}
    for (const name in indexes) params[name] = stash[indexes[name] as number] as string
    const schema = read.route.request?.params
    if (schema && !schema.safeParse(params).success) return null
    answered = read
    return read.readCached(cached, params)
  }

  return function answerCachedRead(request, response) {
    const startedAt = performance.now()
    const found = answer(request)
    if (found === null) return app(request, response)
    const given = request.headers['x-request-id']
    const requestId = requestIdFor(typeof given === 'string' ? given : undefined)
    // The headers the app's requestLog, cors and jsonBytes give the same answer.
    const headers: Record<string, string | number> = {
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    }
    cors.addAnswerHeaders(request.headers.origin, (name, value) => {
      headers[name] = value
    })
    let sent: ListRepresentation = found
    if (answered?.compressible) {
      sent = listVariants.of(found, negotiateEncoding(request.headers['accept-encoding']))
      headers.vary = varyWithAcceptEncoding(headers.vary as string | undefined)
    }
    const ifNoneMatch = request.headers['if-none-match']
    let status = 304
    if (noneMatchHits(ifNoneMatch, sent.etag)) {
      headers.etag = sent.etag
      response.writeHead(status, headers).end()
    } else {
      status = 200
      headers['content-type'] = 'application/json'
      if (sent.coding !== undefined) headers['content-encoding'] = sent.coding
      headers.etag = sent.etag
      headers['content-length'] = sent.body.byteLength
      response.writeHead(status, headers).end(sent.body)
    }
    log(requestLine(requestId, 'GET', request.url as string, status, startedAt))
  }
}
