import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, inject } from 'vitest'
import type { TestTls } from './tls.global-setup.js'

/** One request the stand-in received. */
export type DetaRequest = {
  method: string
  /** Where it was sent: the host given to the SDK. */
  host: string
  /** `/v1/<project id>/<base>/items[/<key>]` or `/v1/<project id>/<base>/query`. */
  path: string
  /** The `X-API-Key` header: the project key. */
  apiKey: string | undefined
  /** The JSON body, when there is one. */
  body: unknown
}

export type DetaItem = Record<string, unknown> & { key: string }
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
function meets(item: DetaItem, query: Query): boolean {
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
 * A Deta Base host in memory, answering the HTTP API the `deta` SDK calls
 * (`/v1/<project>/<base>/items|query`) and recording every request: insert (409 on a key that
 * exists), put, get (404), delete, and query with equality, `?gt`, `?gte`, `?lt` and `?lte` on
 * fields (a list of queries is their union), paged in key order by `limit` and `last`. A key of
 * another project is a 401, and an item whose `__expires` has passed is gone, as on Deta.
 *
 * Two ways in: `fetch` answers a Worker's outbound request under Miniflare; `start()` or
 * `forEachTest()` serve it over TLS on loopback for the SDK's Node build, which speaks only
 * https (the certificate comes from `tls.global-setup.ts`).
 * @example
 * const deta = DetaBaseStandIn.forEachTest()
 * it('logs', async () => { new DetaMailLog({ projectKey: 'p_k', host: deta.host, baseName }) })
 */
export class DetaBaseStandIn {
  readonly requests: DetaRequest[] = []
  /** Bases that answer 500 with Deta's error shape. */
  readonly failing = new Set<string>()
  readonly #bases = new Map<string, Map<string, DetaItem>>()
  #server: Server | undefined

  /** Served over TLS on loopback until `stop()`. */
  static async start(tls: TestTls = inject('tls')): Promise<DetaBaseStandIn> {
    const standIn = new DetaBaseStandIn()
    await standIn.#listen(tls)
    return standIn
  }

  /**
   * For the enclosing test file: served before its tests and stopped after them; before each
   * test it forgets every item, request and failing base.
   */
  static forEachTest(): DetaBaseStandIn {
    const standIn = new DetaBaseStandIn()
    beforeAll(() => standIn.#listen(inject('tls')))
    afterAll(() => standIn.stop())
    beforeEach(() => standIn.clear())
    return standIn
  }

  /** `localhost:<port>`, what DETA_BASE_HOST (or the SDK's `host`) takes. */
  get host(): string {
    if (!this.#server) throw new Error('the Deta Base stand-in is not served: start() it')
    return `localhost:${(this.#server.address() as AddressInfo).port}`
  }

  /** Answers one request of the Base API: a Worker's outbound fetch. */
  readonly fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    const text = await request.text()
    let body: unknown
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      return error(400, 'Bad request body')
    }
    const apiKey = request.headers.get('x-api-key') ?? undefined
    this.requests.push({ method: request.method, host: url.host, path: url.pathname, apiKey, body })
    return this.#answer(request.method, url.pathname, apiKey, body)
  }

  /** The live items of `base`, in key order. */
  items(base: string): DetaItem[] {
    return [...this.#live(base).values()].sort((a, b) => (a.key < b.key ? -1 : 1))
  }

  /** The requests that reached the base named `base`, in order. */
  requestsTo(base: string): DetaRequest[] {
    return this.requests.filter((request) => route.exec(request.path)?.[2] === base)
  }

  clear(): void {
    this.#bases.clear()
    this.requests.length = 0
    this.failing.clear()
  }

  async stop(): Promise<void> {
    const server = this.#server
    if (!server) return
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }

  async #listen({ key, cert }: TestTls): Promise<void> {
    const server = createServer({ key, cert }, async (req, res) => {
      const chunks: Buffer[] = []
      try {
        for await (const chunk of req) chunks.push(chunk as Buffer)
      } catch {
        // The caller went away mid-body (a killed process): nothing whole arrived to store.
        return
      }
      const apiKey = req.headers['x-api-key']
      const request = new Request(`https://${req.headers.host}${req.url}`, {
        method: req.method ?? 'GET',
        headers: typeof apiKey === 'string' ? { 'x-api-key': apiKey } : {},
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      })
      const response = await this.fetch(request)
      res.writeHead(response.status, { 'content-type': 'application/json' })
      res.end(await response.text())
    })
    this.#server = server
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  }

  #answer(method: string, path: string, apiKey: string | undefined, body: unknown): Response {
    const [, project, baseName = '', resource, encodedKey] = route.exec(path) ?? []
    if (!project) return error(404, 'Not found')
    if (apiKey?.split('_')[0] !== project) return error(401, 'Unauthorized')
    if (this.failing.has(baseName)) return error(500, 'stand-in is failing on purpose')
    const base = this.#live(baseName)
    const key = encodedKey === undefined ? undefined : decodeURIComponent(encodedKey)
    if (resource === 'query' && method === 'POST') return this.#query(baseName, body)
    if (key === undefined && method === 'POST') {
      const { item } = body as { item: DetaItem }
      const stored = { ...item, key: item.key ?? newKey() }
      if (base.has(stored.key)) return error(409, `Key '${stored.key}' already exists`)
      base.set(stored.key, stored)
      return Response.json(stored, { status: 201 })
    }
    if (key === undefined && method === 'PUT') {
      const { items } = body as { items: DetaItem[] }
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
    const {
      query = [],
      limit,
      last,
      sort,
    } = body as { query?: Query[]; limit: number; last?: string; sort?: string }
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

  #live(name: string): Map<string, DetaItem> {
    const base = this.#bases.get(name) ?? new Map<string, DetaItem>()
    this.#bases.set(name, base)
    const nowSeconds = Date.now() / 1000
    for (const [key, item] of base) {
      if (typeof item.__expires === 'number' && item.__expires <= nowSeconds) base.delete(key)
    }
    return base
  }
}
