/** One request the Worker sent out, as the stand-ins received it. */
export type Outbound = {
  url: string
  method: string
  headers: Record<string, string>
  /** Mailgun's multipart fields, in order. */
  fields?: [string, string][]
  /** A Deta Base request's JSON body. */
  json?: unknown
}

export type Item = Record<string, unknown> & { key: string }
type Query = Record<string, unknown>

const route = /^\/v1\/([^/]+)\/([^/]+)\/(items|query)(?:\/([^/]+))?$/
const comparisons: Record<string, (value: number | string, bound: number | string) => boolean> = {
  gt: (value, bound) => value > bound,
  gte: (value, bound) => value >= bound,
  lt: (value, bound) => value < bound,
  lte: (value, bound) => value <= bound,
}

const newKey = () => crypto.randomUUID().replaceAll('-', '').slice(0, 12)
const error = (status: number, message: string) => Response.json({ errors: [message] }, { status })
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Whether `item` meets every condition of `query`: `field` is equality, `field?gt` and kin compare. */
function meets(item: Item, query: Query): boolean {
  return Object.entries(query).every(([field, bound]) => {
    const [name = '', operator] = field.split('?')
    if (operator === undefined) return sameValue(item[name], bound)
    const value = item[name]
    const compare = comparisons[operator]
    return (
      compare !== undefined &&
      (typeof value === 'number' || typeof value === 'string') &&
      typeof value === typeof bound &&
      compare(value, bound as number | string)
    )
  })
}

const knownOperators = (query: Query) =>
  Object.keys(query).every((field) => {
    const operator = field.split('?')[1]
    return operator === undefined || operator in comparisons
  })

/**
 * A Deta Base host in memory, answering the HTTP API that the `deta` SDK calls
 * (`/v1/<project>/<base>/items|query`): insert (409 on a key that exists), put, get (404),
 * delete, and query with equality, `?gt`, `?gte`, `?lt` and `?lte` on fields (a list of queries
 * is their union), paged in key order by `limit` and `last`. An item whose `__expires` has
 * passed is gone, as on Deta.
 */
export class DetaBaseStandIn {
  readonly #bases = new Map<string, Map<string, Item>>()
  /** Bases that answer 500 with Deta's error shape. */
  readonly failing = new Set<string>()

  /** The live items of `base`, in key order. */
  items(base: string): Item[] {
    return [...this.#live(base).values()].sort((a, b) => (a.key < b.key ? -1 : 1))
  }

  clear(): void {
    this.#bases.clear()
    this.failing.clear()
  }

  answer(method: string, url: URL, apiKey: string | null, body: unknown): Response {
    const [, project, baseName = '', resource, path] = route.exec(url.pathname) ?? []
    if (!project) return error(404, 'Not found')
    if (apiKey?.split('_')[0] !== project) return error(401, 'Unauthorized')
    if (this.failing.has(baseName)) return error(500, 'the stand-in fails on purpose')
    const base = this.#live(baseName)
    const key = path === undefined ? undefined : decodeURIComponent(path)
    if (resource === 'query' && method === 'POST') return this.#query(baseName, body)
    if (key === undefined && method === 'POST') {
      const { item } = body as { item: Item }
      const stored = { ...item, key: item.key ?? newKey() }
      if (base.has(stored.key)) return error(409, `Key '${stored.key}' already exists`)
      base.set(stored.key, stored)
      return Response.json(stored, { status: 201 })
    }
    if (key === undefined && method === 'PUT') {
      const { items } = body as { items: Item[] }
      const stored = items.map((item) => ({ ...item, key: item.key ?? newKey() }))
      for (const item of stored) base.set(item.key, item)
      return Response.json({ processed: { items: stored } }, { status: 207 })
    }
    if (key !== undefined && method === 'GET') {
      const item = base.get(key)
      return item ? Response.json(item) : Response.json({ key }, { status: 404 })
    }
    if (key !== undefined && method === 'DELETE') {
      base.delete(key)
      return Response.json({ key })
    }
    return error(405, 'Method not allowed')
  }

  #query(baseName: string, body: unknown): Response {
    const { query, limit, last, sort } = body as {
      query: Query[]
      limit: number
      last?: string
      sort?: string
    }
    if (!Number.isInteger(limit) || limit < 1) return error(400, 'Bad limit')
    if (!query.every(knownOperators)) return error(400, 'Bad query')
    const desc = sort === 'desc'
    const ordered = desc ? this.items(baseName).reverse() : this.items(baseName)
    const matching = ordered.filter(
      (item) =>
        (query.length === 0 || query.some((one) => meets(item, one))) &&
        (!last || (desc ? item.key < last : item.key > last)),
    )
    const items = matching.slice(0, limit)
    const more = matching.length > limit
    return Response.json({
      items,
      paging: more ? { size: items.length, last: items.at(-1)?.key } : { size: items.length },
    })
  }

  #live(name: string): Map<string, Item> {
    const base = this.#bases.get(name) ?? new Map<string, Item>()
    this.#bases.set(name, base)
    const nowSeconds = Date.now() / 1000
    for (const [key, item] of base) {
      if (typeof item.__expires === 'number' && item.__expires <= nowSeconds) base.delete(key)
    }
    return base
  }
}

/**
 * The Worker's outbound fetch in a test: Mailgun on `mailgunHost`, a Deta Base host on
 * `detaHost`, and a record of every request, in order, for asserting what went out.
 * @example new Miniflare({ ...options, outboundService: outbound.fetch })
 */
export class WorkerOutbound {
  readonly requests: Outbound[] = []
  readonly deta = new DetaBaseStandIn()
  /** How Mailgun answers; a test may delay it or make it fail. */
  mailgunAnswer: () => Promise<Response>

  constructor(
    readonly mailgunHost: string,
    readonly detaHost: string,
    readonly accepted: () => Promise<Response>,
  ) {
    this.mailgunAnswer = accepted
  }

  /** Forgets every request and item, and has Mailgun accept at once again. */
  reset(): void {
    this.requests.length = 0
    this.deta.clear()
    this.mailgunAnswer = this.accepted
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    const { method } = request
    const headers = Object.fromEntries(request.headers)
    if (url.host === this.mailgunHost) {
      const form = await request.formData()
      const fields = [...form].map(([name, value]) => [name, String(value)] as [string, string])
      this.requests.push({ url: request.url, method, headers, fields })
      return this.mailgunAnswer()
    }
    const text = await request.text()
    const json: unknown = text ? JSON.parse(text) : undefined
    this.requests.push(
      text ? { url: request.url, method, headers, json } : { url: request.url, method, headers },
    )
    if (url.host !== this.detaHost) return error(502, `no stand-in for ${url.host}`)
    return this.deta.answer(method, url, request.headers.get('x-api-key'), json)
  }

  /** The requests that reached Mailgun. */
  toMailgun(): Outbound[] {
    return this.requests.filter((request) => new URL(request.url).host === this.mailgunHost)
  }

  /** The requests that reached the Deta Base named `base`. */
  toBase(base: string): Outbound[] {
    return this.requests.filter((request) => {
      const url = new URL(request.url)
      return url.host === this.detaHost && route.exec(url.pathname)?.[2] === base
    })
  }
}
