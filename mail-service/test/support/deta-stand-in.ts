import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { inject } from 'vitest'

export type DetaRequest = { method: string; path: string; apiKey?: string; body: unknown }
type Item = Record<string, unknown> & { key: string }

/**
 * A stand-in for the Deta Base HTTP API (the routes the SDK's insert and fetch use) on
 * loopback over TLS, keeping items in memory and recording every request it receives.
 * `failing = true` makes it answer 500 with Deta's error shape.
 */
export class DetaStandIn {
  readonly requests: DetaRequest[] = []
  failing = false
  #bases = new Map<string, Item[]>()
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
    const match = /^\/v1\/([^/]+)\/([^/]+)\/(items|query)$/.exec(path)
    if (!match || method !== 'POST') return [404, { errors: ['Not found'] }]
    const base = match[2] as string
    const items = this.#bases.get(base) ?? []
    this.#bases.set(base, items)
    if (match[3] === 'items') {
      const item = (body as { item: Item }).item
      if (items.some((existing) => existing.key === item.key)) return [409, { errors: ['exists'] }]
      items.push(item)
      return [201, item]
    }
    const { limit, last, sort } = body as { limit: number; last: string; sort: string }
    const sorted = [...items].sort((a, b) => a.key.localeCompare(b.key))
    if (sort === 'desc') sorted.reverse()
    const start = last ? sorted.findIndex((item) => item.key === last) + 1 : 0
    const page = sorted.slice(start, start + limit)
    const more = start + limit < sorted.length
    return [
      200,
      { items: page, paging: { size: page.length, last: more ? page.at(-1)?.key : undefined } },
    ]
  }
}
