import type { IncomingMessage, RequestListener } from 'node:http'
import { answerTagged, corsPolicy, requestIdFor, requestLine } from '@movies-and-mail/http-kit'
import { itemIdParamSchema } from '../items/item.schema.js'
import type { Compress } from '../items/items.app.js'
import type { CachedItems, TaggedJson } from '../store/item-store.js'

export type CachedReadsOptions = {
  /** The store's items in memory (`ItemStore.cached`). */
  cached: CachedItems
  /** As given to `createApp`: the same instance, so both send the same compressed bytes. */
  compress?: Compress | undefined
  /** As given to `createApp`. */
  corsOrigins: readonly string[]
  /** As given to `createApp`. */
  log: (line: string) => void
}

/** What a polled read is: the whole list (compressed when taken), or one item. */
type Read = { tagged: TaggedJson; list: boolean }

const json: Readonly<Record<string, string>> = { 'content-type': 'application/json' }
/** The headers of the list in each coding, JSON's type with them: made once per coding. */
const jsonIn = new WeakMap<object, Readonly<Record<string, string>>>()
const asJson = (coding: Readonly<Record<string, string>>) => {
  let headers = jsonIn.get(coding)
  if (headers === undefined) {
    headers = { ...json, ...coding }
    jsonIn.set(coding, headers)
  }
  return headers
}

/**
 * Puts the polled reads of a store that keeps its items' JSON in memory (`GET /items`, and
 * `GET /items/<id>` of an item that exists) in front of `app`, the Hono app's Node listener,
 * answered by node:http alone, at once: for an answer of a few hundred bytes, the adapter's web
 * `Request`/`Response` and Hono's dispatch cost more than the answer (bench/README.md).
 *
 * Nothing is decided twice: the answer (200, or 304 to an `If-None-Match` that names the tag)
 * is the kit's `answerTagged`, the compressed bytes the app's own `compress`, the id is checked
 * by the route's own param schema, and the request id, CORS and log line are the kit's helpers
 * the app's middleware use; a test compares both paths request by request. Anything else
 * (another method, a query, a path to decode or with dot segments, the change feed, an id the
 * schema refuses, an unknown id) goes to `app`.
 * @example createServer(withCachedReads(listener, { cached: store.cached, corsOrigins, log }))
 */
export function withCachedReads(
  app: RequestListener,
  { cached, compress, corsOrigins, log }: CachedReadsOptions,
): RequestListener {
  // Writes do not come here: only the answer headers of the policy matter.
  const cors = corsPolicy({ writeOrigins: corsOrigins, keyedWrites: false })

  function read(url: string): Read | null {
    if (url === '/items') return { tagged: cached.list(), list: true }
    if (!url.startsWith('/items/')) return null
    const id = url.slice('/items/'.length)
    // The feed's path, a path to decode, a query, or more segments: the app's.
    if (id === 'events' || /[/?%]/.test(id)) return null
    if (!itemIdParamSchema.safeParse({ id }).success) return null
    const tagged = cached.find(id)
    return tagged && { tagged, list: false }
  }

  return function answerCachedRead(request: IncomingMessage, response) {
    const startedAt = performance.now()
    const found = request.method === 'GET' ? read(request.url ?? '') : null
    if (found === null) return app(request, response)
    const given = request.headers['x-request-id']
    const requestId = requestIdFor(typeof given === 'string' ? given : undefined)
    // The headers the app's requestLog and cors give the same answer.
    const headers: Record<string, string | number> = {
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    }
    cors.addAnswerHeaders((name, value) => {
      headers[name] = value
    })
    const sent =
      found.list && compress ? compress(found.tagged, request.headers['accept-encoding']) : null
    const answer = answerTagged(
      sent?.tagged ?? found.tagged,
      request.headers['if-none-match'],
      sent ? asJson(sent.headers) : json,
    )
    for (const name in answer.headers) headers[name] = answer.headers[name] as string
    headers.etag = answer.etag
    if (answer.body === null) response.writeHead(answer.status, headers).end()
    else {
      headers['content-length'] = answer.body.byteLength
      response.writeHead(answer.status, headers).end(answer.body)
    }
    log(requestLine(requestId, 'GET', request.url as string, answer.status, startedAt))
  }
}
