import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, type RequestListener, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { Compression } from '@movies-and-mail/http-kit/node'
import { afterAll, beforeAll, expect } from 'vitest'
import { createApp } from '../../src/app.js'
import type { Compress } from '../../src/items/items.app.js'
import { withCachedReads } from '../../src/node/cached-reads.js'
import { EmbeddedItemStore } from '../../src/store/embedded/embedded-item-store.js'
import type { NewItem } from '../../src/store/item-store.js'

export type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer }
export type Sent = { method?: string; path: string; headers?: Record<string, string> }

/** One server over the store: the app alone, or the app behind the cached reads' front. */
export class Server {
  readonly lines: string[] = []
  /** Requests that reached the app. */
  appCalls = 0
  readonly #server

  constructor(
    store: EmbeddedItemStore,
    corsOrigins: string[],
    direct: boolean,
    compression: Compression,
  ) {
    const log = (line: string) => this.lines.push(line)
    const compress: Compress = (list, acceptEncoding) => compression.of(list, acceptEncoding)
    const appListener = getRequestListener(
      createApp({ store, corsOrigins, apiKey: 'key', log, compress }).fetch,
      { hostname: '127.0.0.1' },
    )
    const counted: RequestListener = (req, res) => {
      this.appCalls++
      return appListener(req, res)
    }
    this.#server = createServer(
      direct
        ? withCachedReads(counted, { cached: store.cached, compress, corsOrigins, log })
        : counted,
    )
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.#server.listen(0, '127.0.0.1', resolve))
  }

  close(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }

  send({ method = 'GET', path, headers = {} }: Sent): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const outgoing = request(this.url + path, { method, headers }, (incoming) => {
        const chunks: Buffer[] = []
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks),
          }),
        )
      })
      outgoing.on('error', reject).end()
    })
  }
}

/** What a client can tell apart: all but the headers that differ between any two answers. */
export function comparable({ status, headers, body }: Answer, sent: Sent) {
  const { date, connection, 'keep-alive': _, 'x-request-id': requestId, ...rest } = headers
  const kept = requestId !== undefined && requestId === sent.headers?.['x-request-id']
  return { status, headers: rest, body, requestId: kept ? requestId : typeof requestId }
}

/** The fields of the log lines written since `from`, but time and duration; ids are the answer's. */
export function loggedSince(server: Server, from: number, answer: Answer) {
  return server.lines.slice(from).map((line) => {
    const [, requestId, method, path, status] = line.split(' ')
    expect(requestId).toBe(answer.headers['x-request-id'])
    return [method, path, status]
  })
}

/**
 * For the enclosing suite: a store in a fresh directory holding `items`, served twice, by the
 * app alone and by the app behind the cached reads' front.
 */
export function useServers(items: NewItem[], corsOrigins = ['*']) {
  let dir: string
  let store: EmbeddedItemStore
  let viaApp: Server
  let direct: Server
  // One for both, as the Node entry has one for the app and the front.
  const compression = new Compression()
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'items-front-'))
    store = await EmbeddedItemStore.open(dir)
    for (const item of items) await store.insert(item)
    viaApp = new Server(store, corsOrigins, false, compression)
    direct = new Server(store, corsOrigins, true, compression)
    await Promise.all([viaApp.listen(), direct.listen()])
  })
  afterAll(async () => {
    await Promise.all([viaApp.close(), direct.close()])
    await store.close()
    await rm(dir, { recursive: true, force: true })
  })
  return { viaApp: () => viaApp, direct: () => direct, compression }
}
