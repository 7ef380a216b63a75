import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, inject } from 'vitest'

export type DetaRequest = { method: string; path: string; apiKey?: string; body: unknown }
type Item = Record<string, unknown> & { key: string }

/**
 * A stand-in for the Deta Base HTTP API (the routes of the SDK's insert, put, get, delete and
 * fetch) on loopback over TLS, keeping items in memory and recording every request it receives.
 * `failing = true` makes it answer 500 with Deta's error shape.
 */
export class DetaStandIn {
  readonly requests: DetaRequest[] = []
  failing = false
  #bases = new Map<string, Item[]>()
  #keys = 0
  #server: Server

  private constructor(server: Server) {
    this.#server = server
  }

  static async start(): Promise<DetaStandIn> {
    const { key, cert } = inject('tls')
    const server = createServer({ key, cert })
    const standIn = new DetaStandIn(server)
    server.on('request', async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const text = Buffer.concat(chunks).toString('utf8')
      const body: unknown = text ? JSON.parse(text) : undefined
      const path = req.url ?? ''
      const apiKey = req.headers['x-api-key'] as string | undefined
      standIn.requests.push({ method: req.method ?? '', path, apiKey, body })
      const [status, answer] = standIn.#answer(req.method ?? '', path, body)
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return standIn
  }

  /** A stand-in started before the test file's tests and stopped after them; reach it by calling. */
  static forTestFile(): () => DetaStandIn {
    let standIn: DetaStandIn | undefined
    beforeAll(async () => {
      standIn = await DetaStandIn.start()
    })
    afterAll(async () => {
      await standIn?.stop()
    })
    return () => {
      if (!standIn) throw new Error('the Deta stand-in runs only while the test file does')
      return standIn
    }
  }

  /** `localhost:<port>`, what DETA_BASE_HOST takes. */
  get host(): string {
    return `localhost:${(this.#server.address() as AddressInfo).port}`
  }

  items(base: string): Item[] {
    return this.#bases.get(base) ?? []
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise((resolve) => this.#server.close(resolve))
  }

  #answer(method: string, path: string, body: unknown): [number, unknown] {
    if (this.failing) return [500, { errors: ['stand-in is failing on purpose'] }]
    const match = /^\/v1\/([^/]+)\/([^/]+)\/(items|query)(?:\/([^/?]+))?$/.exec(path)
    if (!match) return [404, { errors: ['Not found'] }]
    const [, , base = '', route, encodedKey] = match
    const items = this.#bases.get(base) ?? []
    this.#bases.set(base, items)
    const at = (key: string) => items.findIndex((item) => item.key === key)
    if (route === 'query' && method === 'POST') return [200, this.#query(items, body)]
    if (encodedKey !== undefined) {
      const key = decodeURIComponent(encodedKey)
      if (method === 'GET') {
        const item = items[at(key)]
        return item ? [200, item] : [404, { errors: ['Key not found'] }]
      }
      if (method === 'DELETE') {
        if (at(key) >= 0) items.splice(at(key), 1)
        return [200, { key }]
      }
      return [404, { errors: ['Not found'] }]
    }
    if (method === 'POST') {
      const given = (body as { item: Record<string, unknown> }).item
      const item = { ...given, key: (given.key as string | undefined) ?? this.#newKey() } as Item
      if (at(item.key) >= 0) return [409, { errors: ['exists'] }]
      items.push(item)
      return [201, item]
    }
    if (method === 'PUT') {
      const put = (body as { items: Item[] }).items
      for (const item of put) {
        if (at(item.key) >= 0) items.splice(at(item.key), 1, item)
        else items.push(item)
      }
      return [207, { processed: { items: put } }]
    }
    return [404, { errors: ['Not found'] }]
  }

  /** Deta's query: a list of alternatives, each a set of field conditions (`f`, `f?gt`, `f?lt`). */
  #query(items: Item[], body: unknown) {
    const {
      query = [],
      limit,
      last,
      sort,
    } = body as {
      query?: Record<string, unknown>[]
      limit: number
      last: string
      sort: string
    }
    const matches = (item: Item, conditions: Record<string, unknown>) =>
      Object.entries(conditions).every(([condition, value]) => {
        const [field = '', operator] = condition.split('?')
        const actual = item[field] as number | string
        if (operator === 'gt') return actual > (value as number | string)
        if (operator === 'lt') return actual < (value as number | string)
        return actual === value
      })
    const found = items.filter(
      (item) => query.length === 0 || query.some((conditions) => matches(item, conditions)),
    )
    const sorted = found.sort((a, b) => a.key.localeCompare(b.key))
    if (sort === 'desc') sorted.reverse()
    const start = last ? sorted.findIndex((item) => item.key === last) + 1 : 0
    const page = sorted.slice(start, start + limit)
    const more = start + limit < sorted.length
    return { items: page, paging: { size: page.length, last: more ? page.at(-1)?.key : undefined } }
  }

  #newKey(): string {
    this.#keys += 1
    return `generated${String(this.#keys).padStart(8, '0')}`
  }
}
