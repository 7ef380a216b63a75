import type { ServiceEnv } from '@movies-and-mail/http-kit/app'
import {
  jsonBytes,
  sendTaggedResponse,
  type Tagged,
  taggedResponse,
} from '@movies-and-mail/http-kit/app'
import { ApiApp } from '@movies-and-mail/http-kit/routes'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type {
  IfMatch,
  Item,
  ItemStore,
  Refused,
  TaggedJson,
  TaggedList,
} from '../store/item-store.js'
import {
  createItemRoute,
  deleteItemRoute,
  getItemRoute,
  listItemsRoute,
  updateItemRoute,
} from './items.routes.js'
import { encodeCursor, parseItemQuery } from './parse-query.js'

/** Bytes as sent to a client, by its `Accept-Encoding`, and the headers that say how. */
export type Compress = (
  list: Tagged,
  acceptEncoding: string | undefined,
) => { tagged: Tagged; headers: Record<string, string> }

export type ItemsAppOptions = {
  store: ItemStore
  /** Compresses the list for a client that takes it; none where the platform compresses. */
  compress?: Compress | undefined
}

const json = { 'content-type': 'application/json' }

/** The status of each refused write, and what its response says: chosen here and only here. */
const refusals = {
  'not-found': { status: 404, error: (id: string) => `item '${id}' not found` },
  stale: { status: 412, error: (id: string) => `item '${id}' does not match If-Match` },
  'duplicate-id': { status: 409, error: (id: string) => `an item with id '${id}' already exists` },
  'not-owner': { status: 403, error: (id: string) => `item '${id}' belongs to another user` },
} as const

/**
 * The response to a write the store refused. Under `If-Match`, an item that does not exist is a
 * failed precondition too (RFC 9110 §13.1.1): `*` names any current version, and there is none.
 */
function refusalResponse(
  c: Context,
  { why, id }: Refused<keyof typeof refusals>,
  ifMatch?: IfMatch,
) {
  const { status, error } = refusals[why === 'not-found' && ifMatch !== undefined ? 'stale' : why]
  return c.json({ error: error(id) }, status)
}

/** The response to a write the store made: the whole list as the write left it, and its tag. */
function written<S extends ContentfulStatusCode>(
  c: Context,
  list: TaggedList,
  status: S,
  headers: Record<string, string> = {},
) {
  return jsonBytes<Item[], S>(c, list.body, status, { etag: list.etag, ...headers })
}

/**
 * A write's `If-Match`: `*`, or the tags it lists (a weak one never matches a write). One that
 * lists no tag at all (empty, or only commas) is no condition: RFC 9110 has lists ignore empty
 * elements, and the Workers runtime drops an empty `If-Match` before any code sees it, so
 * treating it as absent is what answers alike on every runtime.
 */
function ifMatchOf(c: Context): IfMatch | undefined {
  const header = c.req.header('if-match')
  if (header === undefined) return undefined
  if (header.trim() === '*') return '*'
  const tags = header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0)
  return tags.length > 0 ? tags : undefined
}

/**
 * A page's tag: the SHA-256 of its bytes and its next cursor, so that whichever instance (or
 * store) made a page, the same page has the same tag. Web Crypto, on Node as on the Worker,
 * where `node:crypto` would load the runtime's Node layer at every start.
 */
async function pageTag(body: Uint8Array, cursor: string | undefined): Promise<string> {
  const hashed = Buffer.concat(cursor === undefined ? [body] : [body, Buffer.from(`\n${cursor}`)])
  const digest = await crypto.subtle.digest('SHA-256', hashed)
  return `"${Buffer.from(digest).toString('base64url')}"`
}

/**
 * The query of a request's URL, `?` included; empty for none or for a bare `?`, as `URL`'s
 * `search` says, without parsing the URL for every poll of the list.
 */
function searchOf(url: string): string {
  const start = url.indexOf('?')
  if (start < 0 || start === url.length - 1) return ''
  return url.includes('#') ? new URL(url).search : url.slice(start)
}

/** The list as a read answers it: 304 to its tag, else its bytes (compressed where taken). */
function sendListWith(compress: Compress | undefined) {
  return (c: Context, list: TaggedList) => {
    // A Blob comes from a Worker's object, where the platform compresses.
    const { body, etag } = list
    const compressed =
      body instanceof Uint8Array
        ? compress?.({ body, etag }, c.req.header('accept-encoding'))
        : undefined
    const tagged = compressed?.tagged ?? list
    const headers = compressed ? jsonWith(compressed.headers) : json
    return sendTaggedResponse<Item[]>(
      c,
      taggedResponse(tagged, c.req.header('if-none-match'), headers),
    )
  }
}

/** Each coding's headers with the type, made once per record (a 304 keeps its part of each). */
const withType = new WeakMap<object, Record<string, string>>()
function jsonWith(headers: Readonly<Record<string, string>>): Record<string, string> {
  let merged = withType.get(headers)
  if (merged === undefined) {
    merged = { ...json, ...headers }
    withType.set(headers, merged)
  }
  return merged
}

/** One item as a read answers it: 304 to its tag, its bytes, or 404. */
function sendItem(c: Context, id: string, item: TaggedJson | null) {
  if (!item) return c.json({ error: refusals['not-found'].error(id) }, 404)
  return sendTaggedResponse<Item>(c, taggedResponse(item, c.req.header('if-none-match'), json))
}

/**
 * The `/items` routes over a store, their guards (API key, body checks) declared in their route
 * configs (`items.routes.ts`). Reads carry a strong `ETag` and answer `If-None-Match` with 304;
 * `PUT` and `DELETE` honour `If-Match`. Every write answers the complete list and its tag, or
 * the status of why the store refused it.
 */
export function itemsApp({ store, compress }: ItemsAppOptions) {
  const sendList = sendListWith(compress)

  /** A read of `GET /items` with a query: the page it selects, tagged by its bytes and cursor. */
  async function queried(c: Context, search: string) {
    const ifNoneMatch = c.req.header('if-none-match')
    const parsed = parseItemQuery(search)
    if ('issues' in parsed) {
      return c.json({ error: 'invalid query parameter', issues: parsed.issues }, 400)
    }
    const { query, parameters } = parsed
    const page = await store.query(query)
    const cursor = page.next && encodeCursor(page.next, query.sort)
    // A tag names the page and its next cursor, whichever instance (or store) made them, so a
    // 304 is never a response whose `Link` has since changed (an item added after a page's last).
    const tagged = { body: page.body, etag: await pageTag(page.body, cursor) }
    // The type alone is the record every read keeps; a page with a next one has its own `Link`.
    const headers =
      cursor === undefined
        ? json
        : {
            ...json,
            link: `</items?${parameters && `${parameters}&`}cursor=${cursor}>; rel="next"`,
          }
    return sendTaggedResponse<Item[]>(c, taggedResponse(tagged, ifNoneMatch, headers))
  }

  // The service's env: the guard tells the routes who writes (`writer`).
  return new ApiApp<ServiceEnv>()
    .openapi(listItemsRoute, (c) => {
      // `/items` and `/items?` alike: with no query, exactly the list, compressed if taken.
      const search = searchOf(c.req.url)
      if (search === '') {
        const list = store.list()
        return list instanceof Promise ? list.then((got) => sendList(c, got)) : sendList(c, list)
      }
      return queried(c, search)
    })
    .openapi(getItemRoute, (c) => {
      const { id } = c.req.valid('param')
      const item = store.find(id)
      return item instanceof Promise
        ? item.then((got) => sendItem(c, id, got))
        : sendItem(c, id, item)
    })
    .openapi(createItemRoute, async (c) => {
      const item = c.req.valid('json')
      // Made before the write: nothing that can throw runs once the item is stored.
      const location = `/items/${encodeURIComponent(item.id)}`
      // A user's item is theirs; the key's has no owner (the body cannot name one).
      const owner = c.get('writer')?.subject
      const result = await store.insert(owner === undefined ? item : { ...item, _owner: owner })
      if (!result.ok) return refusalResponse(c, result)
      return written(c, result.list, 201, { location })
    })
    .openapi(updateItemRoute, async (c) => {
      const { id } = c.req.valid('param')
      const ifMatch = ifMatchOf(c)
      const by = c.get('writer')?.subject
      const result = await store.update(id, c.req.valid('json'), ifMatch, by)
      if (!result.ok) return refusalResponse(c, result, ifMatch)
      return written(c, result.list, 200)
    })
    .openapi(deleteItemRoute, async (c) => {
      const { id } = c.req.valid('param')
      const ifMatch = ifMatchOf(c)
      const result = await store.remove(id, ifMatch, c.get('writer')?.subject)
      if (!result.ok) return refusalResponse(c, result, ifMatch)
      return written(c, result.list, 200)
    })
}

export type ItemsApp = ReturnType<typeof itemsApp>
