import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, type RequestListener, request } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { movies } from '../../test/support/test-app.js'
import { createApp } from '../app.js'
import type { Item } from '../items/item.schema.js'
import { cachedReads } from '../items/items.cached-reads.js'
import { EmbeddedItemStore } from '../store/embedded-item-store.js'
import { withCachedReads } from './cached-reads.js'

type Answer = { status: number; headers: IncomingHttpHeaders; body: string }
type Sent = { method?: string; path: string; headers?: Record<string, string> }

/** One server over the store: the app alone, or the app behind the cached reads' front. */
class Server {
  readonly lines: string[] = []
  /** Requests that reached the app. */
  appCalls = 0
  readonly #server

  constructor(store: EmbeddedItemStore, corsOrigins: string[], direct: boolean) {
    const log = (line: string) => this.lines.push(line)
    const appListener = getRequestListener(
      createApp({ store, corsOrigins, apiKey: 'key', log }).fetch,
      { hostname: '127.0.0.1' },
    )
    const counted: RequestListener = (req, res) => {
      this.appCalls++
      return appListener(req, res)
    }
    this.#server = createServer(
      direct
        ? withCachedReads(counted, { reads: cachedReads, cached: store.cached, corsOrigins, log })
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
            body: Buffer.concat(chunks).toString(),
          }),
        )
      })
      outgoing.on('error', reject).end()
    })
  }
}

/** What a client can tell apart: all but the headers that differ between any two answers. */
function comparable({ status, headers, body }: Answer, sent: Sent) {
  const { date, connection, 'keep-alive': _, 'x-request-id': requestId, ...rest } = headers
  const kept = requestId !== undefined && requestId === sent.headers?.['x-request-id']
  return { status, headers: rest, body, requestId: kept ? requestId : typeof requestId }
}

/** The fields of the log lines written since `from`, but time and duration; ids are the answer's. */
function loggedSince(server: Server, from: number, answer: Answer) {
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
function useServers(items: Item[], corsOrigins = ['*']) {
  let dir: string
  let store: EmbeddedItemStore
  let viaApp: Server
  let direct: Server
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'items-front-'))
    store = await EmbeddedItemStore.open(dir)
    for (const item of items) await store.insert(item)
    viaApp = new Server(store, corsOrigins, false)
    direct = new Server(store, corsOrigins, true)
    await Promise.all([viaApp.listen(), direct.listen()])
  })
  afterAll(async () => {
    await Promise.all([viaApp.close(), direct.close()])
    await store.close()
    await rm(dir, { recursive: true, force: true })
  })
  return { viaApp: () => viaApp, direct: () => direct }
}

describe.each([{ corsOrigins: ['*'] }, { corsOrigins: ['https://app.example'] }])(
  'the cached reads front with CORS_ORIGINS $corsOrigins',
  ({ corsOrigins }) => {
    const servers = useServers([movies.shawshank, movies.godfather], corsOrigins)

    const fromApp = 'left to the app'
    const answered = 'answered directly'
    it.each<[string, Sent]>([
      [answered, { path: '/items' }],
      [answered, { path: '/items/tt0111161' }],
      [answered, { path: '/items/tt0068646', headers: { origin: 'https://app.example' } }],
      [answered, { path: '/items', headers: { origin: 'https://evil.example' } }],
      [answered, { path: '/items', headers: { 'x-request-id': 'caller-7.a:b' } }],
      [answered, { path: '/items', headers: { 'x-request-id': 'not sane, replaced' } }],
      [answered, { path: '/items', headers: { host: 'LOCALHOST:4000' } }],
      [fromApp, { path: '/items/nope' }],
      [fromApp, { path: '/items/%74t0111161' }],
      [fromApp, { path: '/items/tt0111161?fields=name' }],
      [fromApp, { path: '/items?x=1' }],
      [fromApp, { path: '/items/' }],
      [fromApp, { path: '/items/tt0111161/' }],
      [fromApp, { path: '/items/..' }],
      [fromApp, { path: `/items/${'x'.repeat(201)}` }],
      [fromApp, { method: 'HEAD', path: '/items' }],
      [
        fromApp,
        { method: 'OPTIONS', path: '/items', headers: preflightFrom('https://app.example') },
      ],
      [fromApp, { method: 'DELETE', path: '/items/tt0111161' }],
    ])('%s: %j gets the same answer and log line as from the app alone', async (kind, sent) => {
      await sameAnswers(kind === answered, sent)
    })

    it.each<[string, string, (etag: string) => string, number]>([
      [answered, '/items', (etag) => etag, 304],
      [answered, '/items', () => '"another"', 200],
      [answered, '/items', (etag) => `"another", W/${etag}`, 304],
      [answered, '/items/tt0111161', (etag) => etag, 304],
      [answered, '/items/tt0111161', () => '*', 304],
      [answered, '/items/tt0068646', () => '"another"', 200],
      [fromApp, '/items/nope', () => '*', 404],
    ])(
      '%s: %s with If-None-Match gets the same answer and log line',
      async (kind, path, header, status) => {
        const { etag } = (await servers.viaApp().send({ path })).headers
        const sent = { path, headers: { 'if-none-match': header(String(etag)) } }
        expect((await sameAnswers(kind === answered, sent)).status).toBe(status)
      },
    )

    /** Sends `sent` to both servers and compares what came back and what was logged. */
    async function sameAnswers(byFront: boolean, sent: Sent) {
      const [viaApp, direct] = [servers.viaApp(), servers.direct()]
      const [appCallsBefore, appLines, directLines] = [
        direct.appCalls,
        viaApp.lines.length,
        direct.lines.length,
      ]
      const [expected, actual] = [await viaApp.send(sent), await direct.send(sent)]
      expect(comparable(actual, sent)).toEqual(comparable(expected, sent))
      expect(loggedSince(direct, directLines, actual)).toEqual(
        loggedSince(viaApp, appLines, expected),
      )
      expect(direct.appCalls - appCallsBefore).toBe(byFront ? 0 : 1)
      return actual
    }
  },
)

describe('the cached reads front on a pipelined connection', () => {
  const servers = useServers([movies.shawshank])

  it('answer in request order when the app answers the request before', async () => {
    const { port } = new URL(servers.direct().url)
    const requests = ['/items/nope', '/items/tt0111161', '/healthz', '/items']
    const raw = requests.map((path) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    const received = await new Promise<string>((resolve, reject) => {
      let text = ''
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `${raw.join('')}GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
      )
      socket
        .on('data', (chunk) => (text += chunk))
        .on('end', () => resolve(text))
        .on('error', reject)
    })
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1])
    expect(statuses).toEqual(['404', '200', '200', '200', '404'])
    expect(received.indexOf('"status":"ok"')).toBeLessThan(received.indexOf('[{'))
    // The two reads of an existing item were answered by the front, between answers of the app.
    expect(servers.direct().appCalls).toBe(3)
  })
})

describe('the cached reads front after writes', () => {
  const servers = useServers([])
  const write = (method: string, path: string, body?: unknown) =>
    fetch(`${servers.direct().url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-apikey': 'key' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const list = async () => JSON.parse((await servers.direct().send({ path: '/items' })).body)

  it('answer what the last write answered, and a refused write changes nothing', async () => {
    let lastAnswered: unknown = []
    for (const [method, path, body, status] of [
      ['POST', '/items', movies.shawshank, 201],
      ['POST', '/items', movies.godfather, 201],
      ['POST', '/items', movies.godfather, 409],
      ['PUT', '/items/tt0111161', { name: 'Renamed' }, 200],
      ['PUT', '/items/tt0111161', { id: 'tt0068646' }, 409],
      ['DELETE', '/items/tt0068646', undefined, 200],
      ['DELETE', '/items/tt0068646', undefined, 404],
    ] as const) {
      const answer = await write(method, path, body)
      expect(answer.status, `${method} ${path}`).toBe(status)
      if (status < 300) lastAnswered = await answer.json()
      expect(await list()).toEqual(lastAnswered)
    }
    const one = await servers.direct().send({ path: '/items/tt0111161' })
    expect(JSON.parse(one.body)).toMatchObject({ id: 'tt0111161', name: 'Renamed' })
  })
})

function preflightFrom(origin: string): Record<string, string> {
  return { origin, 'access-control-request-method': 'PUT' }
}
