import type { Item } from '../../src/api-types.js'
import type { Fetch } from '../../src/request-headers.js'

// A stand-in for the reads and writes of items-service, as far as the client's conditional
// reads and paging need it: tagged answers, If-None-Match, filters, pages linked by cursor.

export type Sent = { method: string; url: string; headers: Record<string, string> }

/** A tag of the bytes answered: the same bytes, the same tag (as the MongoDB store's are). */
function tagOf(text: string): string {
  let hash = 5381
  for (let index = 0; index < text.length; index++) {
    hash = (hash * 33 + text.charCodeAt(index)) >>> 0
  }
  return `"${hash.toString(36)}"`
}

const shapeKeys = ['sort', 'limit', 'cursor']

export class ItemsStandIn {
  /** Each request, as sent. */
  readonly requests: Sent[] = []
  /** The status of each answer, in the order of `requests`. */
  readonly statuses: number[] = []
  items: Item[] = []

  readonly fetch: Fetch = async (url, init) => {
    const method = init.method ?? 'GET'
    const headers = Object.fromEntries(new Headers(init.headers))
    this.requests.push({ method, url, headers })
    const response = this.#answer(method, new URL(url), headers, init.body)
    this.statuses.push(response.status)
    return response
  }

  /** Adds items as another client would: this client's kept answers do not know of it. */
  add(...items: Item[]): void {
    this.items.push(...items)
  }

  #answer(method: string, url: URL, headers: Record<string, string>, body: unknown): Response {
    const id = /^\/items\/(.+)$/.exec(url.pathname)?.[1]
    if (method === 'GET' && id === undefined) return this.#page(url, headers['if-none-match'])
    if (method === 'GET' && id !== undefined) {
      const item = this.items.find((each) => each.id === decodeURIComponent(id))
      if (!item) return Response.json({ error: `item '${id}' not found` }, { status: 404 })
      return tagged(JSON.stringify(item), headers['if-none-match'])
    }
    const fields = typeof body === 'string' ? (JSON.parse(body) as Item) : undefined
    if (method === 'POST' && fields) {
      this.items.push({ ...fields, _id: this.items.length.toString(16).padStart(24, '0') })
    }
    const index = this.items.findIndex((each) => each.id === decodeURIComponent(id ?? ''))
    if (method === 'PUT' && fields) this.items[index] = { ...this.items[index], ...fields } as Item
    if (method === 'DELETE') this.items.splice(index, 1)
    return tagged(JSON.stringify(this.items), undefined, method === 'POST' ? 201 : 200)
  }

  /** `GET /items`: the items the filters select, `limit` of them from `cursor` (an offset). */
  #page(url: URL, ifNoneMatch: string | undefined): Response {
    const filters = [...url.searchParams].filter(([name]) => !shapeKeys.includes(name))
    const selected = this.items.filter((item) =>
      filters.every(([name, value]) => String(item[name]) === value),
    )
    const limit = Number(url.searchParams.get('limit') ?? selected.length)
    const from = Number(url.searchParams.get('cursor') ?? 0)
    const page = selected.slice(from, from + limit)
    let link: string | undefined
    if (from + limit < selected.length) {
      const next = new URLSearchParams(url.searchParams)
      next.set('cursor', String(from + limit))
      link = `</items?${next}>; rel="next"`
    }
    return tagged(JSON.stringify(page), ifNoneMatch, 200, link)
  }
}

/** A JSON answer with its tag, or a 304 when `ifNoneMatch` is that tag. */
function tagged(text: string, ifNoneMatch: string | undefined, status = 200, link?: string) {
  const headers = new Headers({ etag: tagOf(text) })
  if (link) headers.set('link', link)
  if (ifNoneMatch === headers.get('etag')) return new Response(null, { status: 304, headers })
  headers.set('content-type', 'application/json')
  return new Response(text, { status, headers })
}

export const movie = (id: string, rest: object = {}): Item => ({
  _id: `6740a1f2c3d4e5f6a7b8c9${id.slice(-2).padStart(2, '0')}`,
  id,
  name: `Film ${id}`,
  genre: 'Drama',
  ...rest,
})
