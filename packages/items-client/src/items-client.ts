import { AnswerCache, type KeptAnswer } from './answer-cache.js'
import type { Item, NoFields } from './api-types.js'
import type {
  CallOptions,
  ItemPage,
  ItemsClient,
  ItemsClientOptions,
  WriteOptions,
} from './client-types.js'
import { conditionalGet } from './conditional-get.js'
import { everyItem } from './every-item.js'
import type { ItemEvent } from './item-event.js'
import { subscribeToEvents } from './item-subscription.js'
import { ItemsApiError } from './items-api-error.js'
import { listPath, listShows } from './kept-list.js'
import { nextCursor } from './link-header.js'
import { parseJson, readText } from './read-answer.js'
import { type Fetch, requestHeaders } from './request-headers.js'
import { changedPaths, itemPath, queryString } from './request-url.js'

/**
 * The global fetch, looked up at each call (a polyfill or an interceptor may come later) and
 * called on `globalThis`: browsers refuse a fetch called as another object's method.
 */
const globalFetch: Fetch = (input, init) => globalThis.fetch(input, init)

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** A 401 whose challenge says the token was refused (RFC 6750 §3.1), not that none was sent. */
const isInvalidToken = (response: Response) =>
  response.status === 401 &&
  /error="invalid_token"/.test(response.headers.get('www-authenticate') ?? '')
type Sent = WriteOptions & { body?: unknown }

/**
 * A client for the items-service at `baseUrl` (its origin, plus a path prefix if it is served
 * under one; `''` for the page's own origin in a browser). `Fields` types the items' custom
 * fields: `createItemsClient<{ year: number }>(…)` makes `item.year` a `number | undefined`.
 * @param options `apiKey` or a user's `token` for the writes, a `fetch` of your own, `headers` for every request,
 * `cache: false` for no conditional reads
 * @example
 * const items = createItemsClient<{ year: number }>('http://localhost:4000', { apiKey: 'my-items-api-key-1' })
 * await items.create({ id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' })
 * const { item, etag } = await items.read('tt0111161') // Item: { _id, id, name, genre, year? }
 * await items.update('tt0111161', { year: 1994 }, { ifMatch: etag })
 * for await (const each of items.all({ genre: 'Drama' })) console.log(each.name, each.year)
 */
export function createItemsClient<Fields extends object = NoFields>(
  baseUrl: string | URL,
  options: ItemsClientOptions = {},
): ItemsClient<Fields> {
  const { apiKey, token, fetch: send = globalFetch, headers, cache: caching = true } = options
  const currentToken = async () => (typeof token === 'function' ? await token() : token)
  const root = String(baseUrl).replace(/\/+$/, '')
  const cache = caching ? new AnswerCache() : undefined

  const fetchAnswer = async (method: Method, path: string, init: RequestInit) => {
    init.signal?.throwIfAborted()
    const response = await send(`${root}${path}`, { ...init, method })
    // A fetch that does not take signals (an in-process app's) still ends with their reason.
    init.signal?.throwIfAborted()
    return response
  }
  const write = async <T>(method: Method, path: string, ids: unknown[], sent: Sent) => {
    const { signal, ifMatch, body } = sent
    const sentHeaders = requestHeaders(headers, sent.headers)
    if (apiKey !== undefined) sentHeaders.set('x-apikey', apiKey)
    if (body !== undefined) sentHeaders.set('content-type', 'application/json')
    if (ifMatch !== undefined) sentHeaders.set('if-match', ifMatch)
    const sentBody = body === undefined ? null : JSON.stringify(body)
    const sendWith = async (bearer: string | undefined) => {
      if (bearer !== undefined) sentHeaders.set('authorization', `Bearer ${bearer}`)
      return fetchAnswer(method, path, {
        headers: sentHeaders,
        body: sentBody,
        signal: signal ?? null,
      })
    }
    // The answer is the whole list as the write left it, tagged as `GET /items` tags it.
    let list: KeptAnswer | undefined
    try {
      let response = await sendWith(await currentToken())
      // A token refused as invalid (expired, say) and a function that may have a fresh one:
      // asked once more, and the write sent again with it. Nothing was stored the first time.
      if (typeof token === 'function' && isInvalidToken(response)) {
        await response.body?.cancel()
        response = await sendWith(await token())
      }
      const text = await readText(response)
      const answered = parseJson<T>(text, response)
      const etag = response.headers.get('etag')
      if (etag !== null) list = { etag, text, link: null }
      return answered
    } finally {
      // Whether it succeeded or not, the write may have changed what was kept; the list it
      // answered is kept in place of the one before, so the next read of the list is a 304.
      cache?.forget(changedPaths(ids))
      if (list) cache?.keep(listPath, list)
    }
  }
  const read = async <T>(path: string, { signal, headers: callHeaders }: CallOptions = {}) => {
    const get = (sentHeaders: Headers) =>
      fetchAnswer('GET', path, { headers: sentHeaders, body: null, signal: signal ?? null })
    const answer = await conditionalGet<T>(get, path, requestHeaders(headers, callHeaders), cache)
    signal?.throwIfAborted()
    return answer
  }
  const page = async (query: object, perCall?: CallOptions): Promise<ItemPage<Fields>> => {
    const { body: items, link } = await read<Item<Fields>[]>(`/items${queryString(query)}`, perCall)
    const next = nextCursor(link)
    return next === undefined ? { items } : { items, next }
  }

  // Every method is async, so that a refused id rejects the call rather than throws from it.
  return {
    list: async (query, perCall) =>
      (await read<Item<Fields>[]>(`/items${queryString(query ?? {})}`, perCall)).body,
    page,
    all: (query, perCall) => everyItem(query ?? {}, (each) => page(each, perCall)),
    get: async (id, perCall) =>
      (await read<Item<Fields>>(itemPath(id, { reading: true }), perCall)).body,
    read: async (id, perCall) => {
      const path = itemPath(id, { reading: true })
      const { body: item, etag, response } = await read<Item<Fields>>(path, perCall)
      if (etag === null) {
        throw ItemsApiError.unreadable(response, 'the answer has no ETag (is it exposed to CORS?)')
      }
      return { item, etag }
    },
    create: async (item, perCall) => write('POST', '/items', [item.id], { ...perCall, body: item }),
    update: async (id, fields, perCall) =>
      write('PUT', itemPath(id), [id, fields.id], { ...perCall, body: fields }),
    remove: async (id, perCall) => write('DELETE', itemPath(id), [id], { ...perCall }),
    subscribe: (onEvent, subscribeOptions = {}) => {
      const open = (lastEventId: string | undefined, signal: AbortSignal) => {
        const streamHeaders = requestHeaders(headers, subscribeOptions.headers)
        streamHeaders.set('accept', 'text/event-stream')
        if (lastEventId !== undefined) streamHeaders.set('last-event-id', lastEventId)
        return send(`${root}/items/events`, { method: 'GET', headers: streamHeaders, signal })
      }
      const onChange = (event: ItemEvent<Fields>) => {
        // A change seen makes what was kept of it stale, but a whole list that shows it already
        // (the answer to this client's own write); a reload, everything.
        if (event.type === 'reload') cache?.forget()
        else {
          const changed = changedPaths([event.item.id])
          cache?.forget(
            (path, kept) => changed(path) && !(path === listPath && listShows(kept, event)),
          )
        }
        onEvent(event)
      }
      return subscribeToEvents<Fields>(open, onChange, subscribeOptions)
    },
  }
}
