import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Compression } from '@movies-and-mail/http-kit/node'
import { MongoStandIn, OpenApiContract } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../../test/support/test-app.js'
import { type AppType, createApp } from '../app.js'
import { MongoItemStore } from '../store/mongo/mongo-item-store.js'
import type { Compress } from './items.app.js'

type Sent = { method?: string; headers?: Record<string, string> }
type Answer = { status: number; headers: Headers; bytes: Buffer; decoded: Buffer }

const decoders: Record<string, (bytes: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
}

let contract: Promise<OpenApiContract> | undefined

/**
 * Sends a request to the app and answers the bytes as sent and as a client reads them,
 * decompressed. The response is checked against the app's OpenAPI document, whose schema
 * describes the JSON whatever its coding on the wire (the check decompresses it).
 */
async function send(
  api: { app: AppType },
  path: string,
  { method = 'GET', headers = {} }: Sent = {},
) {
  const response = await api.app.fetch(new Request(`http://localhost${path}`, { method, headers }))
  contract ??= OpenApiContract.of(api.app)
  await (await contract).check({ method, url: path, headers: new Headers(headers) }, response)
  const bytes = Buffer.from(await response.arrayBuffer())
  const decode = decoders[response.headers.get('content-encoding') ?? '']
  // HEAD and 304 carry no bytes to decode.
  const decoded = decode && bytes.byteLength > 0 ? decode(bytes) : bytes
  return { status: response.status, headers: response.headers, bytes, decoded } as Answer
}

const accepting = (acceptEncoding: string, more: Record<string, string> = {}) => ({
  headers: { 'accept-encoding': acceptEncoding, ...more },
})
const coded = (etag: string | null, coding: string) => `${etag?.slice(0, -1)}-${coding}"`

describe('GET /items compressed', () => {
  const api = useTestApp()
  const seedMovies = () =>
    api().seed(
      movies.shawshank,
      movies.godfather,
      { id: 'tt0000001', name: 'Ünïcödé — 映画 🎬', genre: 'Drama' },
      ...Array.from({ length: 30 }, (_, n) => ({
        id: `tt1${n}`,
        name: `Movie ${n}`,
        genre: 'Drama',
      })),
    )

  it('sends br or gzip to a client that accepts it, decompressing to exactly the plain list', async () => {
    await seedMovies()
    const plain = await send(api(), '/items')
    expect(plain.headers.get('content-encoding')).toBeNull()
    for (const coding of ['br', 'gzip']) {
      const answer = await send(api(), '/items', accepting(coding))
      expect(answer.status).toBe(200)
      expect(answer.headers.get('content-encoding')).toBe(coding)
      expect(answer.headers.get('content-type')).toBe('application/json')
      expect(answer.headers.get('etag')).toBe(coded(plain.headers.get('etag'), coding))
      expect(answer.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 3)
      expect(answer.decoded.equals(plain.bytes)).toBe(true)
    }
  })

  it.each<[string, string | null]>([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['Br;Q=0.4, GZIP;q=0.6', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['br;q=0, gzip;q=0', null],
    ['identity, br;q=0.5', null],
    ['deflate', null],
  ])('chooses by Accept-Encoding %j: %s', async (header, coding) => {
    await api().seed(movies.shawshank)
    const answer = await send(api(), '/items', accepting(header))
    expect(answer.headers.get('content-encoding')).toBe(coding)
    expect(answer.headers.get('vary')).toBe('Accept-Encoding')
    expect(JSON.parse(answer.decoded.toString())).toEqual([
      expect.objectContaining(movies.shawshank),
    ])
  })

  it('varies on Accept-Encoding in every answer, plain and 304 included', async () => {
    await api().seed(movies.shawshank)
    const plain = await send(api(), '/items')
    const notModified = await send(api(), '/items', {
      headers: { 'if-none-match': plain.headers.get('etag') ?? '' },
    })
    expect(notModified.status).toBe(304)
    for (const answer of [plain, notModified, await send(api(), '/items', accepting('br'))]) {
      expect(answer.headers.get('vary')).toBe('Accept-Encoding')
    }
  })

  it('answers 304 to the tag of the representation it would send', async () => {
    await seedMovies()
    const plainTag = (await send(api(), '/items')).headers.get('etag') ?? ''
    const brTag = (await send(api(), '/items', accepting('br'))).headers.get('etag') ?? ''
    const again = await send(api(), '/items', accepting('br', { 'if-none-match': brTag }))
    expect(again.status).toBe(304)
    expect(again.bytes.byteLength).toBe(0)
    expect(again.headers.get('etag')).toBe(brTag)
    expect(again.headers.get('content-encoding')).toBeNull()
    // A tag of another representation names other bytes: the client gets the ones it asked for.
    const other = await send(api(), '/items', accepting('br', { 'if-none-match': plainTag }))
    expect([other.status, other.headers.get('content-encoding')]).toEqual([200, 'br'])
    const gzip = await send(api(), '/items', accepting('gzip', { 'if-none-match': brTag }))
    expect([gzip.status, gzip.headers.get('content-encoding')]).toEqual([200, 'gzip'])
    const plain = await send(api(), '/items', { headers: { 'if-none-match': brTag } })
    expect([plain.status, plain.headers.get('content-encoding')]).toEqual([200, null])
  })

  it('answers a new list, in a new tag, once the list changed', async () => {
    await api().seed(movies.shawshank)
    const before = await send(api(), '/items', accepting('br'))
    await api().post(movies.godfather)
    const after = await send(
      api(),
      '/items',
      accepting('br', { 'if-none-match': before.headers.get('etag') ?? '' }),
    )
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(JSON.parse(after.decoded.toString())).toHaveLength(2)
  })

  it('answers HEAD with the headers of GET and no body', async () => {
    await seedMovies()
    for (const coding of ['br', 'gzip', 'identity']) {
      const get = await send(api(), '/items', accepting(coding))
      const head = await send(api(), '/items', { method: 'HEAD', ...accepting(coding) })
      expect(head.status).toBe(200)
      expect(head.bytes.byteLength).toBe(0)
      for (const name of ['content-encoding', 'content-type', 'etag', 'vary']) {
        expect(head.headers.get(name), `${coding} ${name}`).toBe(get.headers.get(name))
      }
    }
  })

  it('sends a query and an item uncompressed', async () => {
    await seedMovies()
    for (const path of ['/items?genre=Drama', '/items?limit=2', '/items/tt0111161']) {
      const answer = await send(api(), path, accepting('br'))
      expect(answer.status, path).toBe(200)
      expect(answer.headers.get('content-encoding'), path).toBeNull()
      expect(JSON.parse(answer.bytes.toString())).toBeTruthy()
    }
  })

  it('makes the compressed bytes once per change of the list, not per request', async () => {
    await seedMovies()
    const made = api().compression.made
    const answers: Answer[] = []
    for (let n = 0; n < 5; n++) answers.push(await send(api(), '/items', accepting('br')))
    expect(api().compression.made - made).toBe(1)
    expect(answers.every((answer) => answer.bytes.equals(answers[0]?.bytes as Buffer))).toBe(true)
    for (let n = 0; n < 5; n++) await send(api(), '/items', accepting('gzip'))
    expect(api().compression.made - made).toBe(2)
    await api().put('tt0111161', { year: 1994 })
    for (let n = 0; n < 5; n++) await send(api(), '/items', accepting('br'))
    expect(api().compression.made - made).toBe(3)
  })
})

describe('GET /items compressed, with CORS for some origins', () => {
  const api = useTestApp({ corsOrigins: ['https://app.example'] })

  it('varies on Accept-Encoding alone: every origin reads the same answer', async () => {
    await api().seed(movies.shawshank)
    const origin = { origin: 'https://app.example' }
    const plain = await send(api(), '/items', { headers: origin })
    const br = await send(api(), '/items', accepting('br', origin))
    const notModified = await send(
      api(),
      '/items',
      accepting('br', { ...origin, 'if-none-match': br.headers.get('etag') ?? '' }),
    )
    expect(notModified.status).toBe(304)
    for (const answer of [plain, br, notModified]) {
      expect(answer.headers.get('vary')).toBe('Accept-Encoding')
      expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    }
  })
})

describe('GET /items compressed, over MongoDB', () => {
  it('reuses the variants while the list hashes to the same tag', async () => {
    const standIn = await MongoStandIn.start()
    const store = await MongoItemStore.connect({ url: standIn.url, timeoutMs: 2_000 })
    try {
      await store.insert({ ...movies.shawshank })
      const compression = new Compression()
      const compress: Compress = (list, acceptEncoding) => compression.of(list, acceptEncoding)
      const api = { app: createApp({ store, log: () => {}, compress }) }
      const plain = await send(api, '/items')
      const made = compression.made
      const first = await send(api, '/items', accepting('br'))
      expect(first.headers.get('etag')).toBe(coded(plain.headers.get('etag'), 'br'))
      expect(first.decoded.equals(plain.bytes)).toBe(true)
      const etag = first.headers.get('etag') ?? ''
      expect((await send(api, '/items', accepting('br', { 'if-none-match': etag }))).status).toBe(
        304,
      )
      expect((await send(api, '/items', accepting('br'))).bytes.equals(first.bytes)).toBe(true)
      expect(compression.made - made).toBe(1)
      await store.insert({ ...movies.godfather })
      const changed = await send(api, '/items', accepting('br', { 'if-none-match': etag }))
      expect(changed.status).toBe(200)
      expect(JSON.parse(changed.decoded.toString())).toHaveLength(2)
      expect(compression.made - made).toBe(2)
    } finally {
      await store.close()
      await standIn.close()
    }
  })
})
