import { request } from 'node:http'
import { connect } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { useServers } from '../../test/support/front-servers.js'
import { movies } from '../../test/support/test-app.js'

describe('the cached reads front with a compressed list', () => {
  const servers = useServers([movies.shawshank, movies.godfather])
  const decoders = { br: brotliDecompressSync, gzip: gunzipSync }

  it('sends bytes that decompress to exactly the plain list', async () => {
    const plain = await servers.direct().send({ path: '/items' })
    for (const coding of ['br', 'gzip'] as const) {
      const sent = { path: '/items', headers: { 'accept-encoding': coding } }
      const answer = await servers.direct().send(sent)
      expect(answer.headers['content-encoding']).toBe(coding)
      expect(Number(answer.headers['content-length'])).toBe(answer.body.byteLength)
      expect(answer.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-${coding}"`)
      expect(decoders[coding](answer.body).equals(plain.body)).toBe(true)
    }
  })

  it('makes the compressed bytes once per change of the list, for the app and the front', async () => {
    const write = () =>
      fetch(`${servers.direct().url}/items/tt0068646`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-apikey': 'key' },
        body: JSON.stringify({ year: 1972 }),
      })
    const br = { path: '/items', headers: { 'accept-encoding': 'br' } }
    const gzip = { path: '/items', headers: { 'accept-encoding': 'gzip' } }
    expect((await write()).status).toBe(200)
    const before = servers.compression.made
    for (let round = 0; round < 3; round++) {
      for (const server of [servers.viaApp(), servers.direct()]) await server.send(br)
    }
    expect(servers.compression.made - before).toBe(1)
    await servers.direct().send(gzip)
    await servers.viaApp().send(gzip)
    expect(servers.compression.made - before).toBe(2)
    expect((await write()).status).toBe(200)
    const changed = await servers.direct().send(br)
    expect(JSON.parse(brotliDecompressSync(changed.body).toString())[1]).toMatchObject({
      year: 1972,
    })
    await servers.viaApp().send(br)
    expect(servers.compression.made - before).toBe(3)
  })
})

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
  const list = async () =>
    JSON.parse((await servers.direct().send({ path: '/items' })).body.toString())

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
    expect(JSON.parse(one.body.toString())).toMatchObject({ id: 'tt0111161', name: 'Renamed' })
  })
})

describe('the cached reads front and the change feed', () => {
  // Stored before `events` was the feed's: it stays in the list, and the path stays the feed's.
  const servers = useServers([{ id: 'events', name: 'Events', genre: 'Documentary' }])

  it('leaves /items/events to the app, even with an item of that id', async () => {
    for (const server of [servers.direct(), servers.viaApp()]) {
      const contentType = await new Promise<string | undefined>((resolve, reject) => {
        request(`${server.url}/items/events`, (incoming) => {
          resolve(incoming.headers['content-type'])
          incoming.destroy()
        })
          .on('error', reject)
          .end()
      })
      expect(contentType).toBe('text/event-stream')
    }
    const list = await servers.direct().send({ path: '/items' })
    expect(JSON.parse(list.body.toString())).toEqual([expect.objectContaining({ id: 'events' })])
  })
})
