import { describe, expect, it } from 'vitest'
import { comparable, loggedSince, type Sent, useServers } from '../../test/support/front-servers.js'
import { movies } from '../../test/support/test-app.js'

describe.each([{ corsOrigins: ['*'] }, { corsOrigins: ['https://app.example'] }])(
  'the cached reads front with CORS_ORIGINS $corsOrigins',
  ({ corsOrigins }) => {
    const servers = useServers([movies.shawshank, movies.godfather], corsOrigins)
    // CORS names no origin: it lets every one read, so the list varies on its coding alone.
    const vary = 'Accept-Encoding'

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

    it.each<[string, string | undefined]>([
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['gzip, deflate, br, zstd', 'br'],
      ['BR;Q=0.5, Gzip;q=0.8', 'gzip'],
      ['br;q=0, *', 'gzip'],
      ['gzip;q=0.5, br;q=0.5', 'br'],
      ['identity, br;q=0.5', undefined],
      ['*;q=0', undefined],
      ['deflate', undefined],
      ['', undefined],
    ])(
      'answered directly: GET /items with Accept-Encoding %j gets the same answer (%s)',
      async (acceptEncoding, coding) => {
        const sent = { path: '/items', headers: { 'accept-encoding': acceptEncoding } }
        const answer = await sameAnswers(true, sent)
        expect(answer.headers['content-encoding']).toBe(coding)
        expect(answer.headers.vary).toBe(vary)
      },
    )

    it.each<[string, Sent]>([
      [answered, { path: '/items', headers: { 'accept-encoding': 'br', origin: 'https://x.y' } }],
      [answered, { path: '/items/tt0111161', headers: { 'accept-encoding': 'br' } }],
      [fromApp, { path: '/items?x=1', headers: { 'accept-encoding': 'br' } }],
      [fromApp, { method: 'HEAD', path: '/items', headers: { 'accept-encoding': 'gzip' } }],
    ])('%s: %j gets the same answer and log line as from the app alone', async (kind, sent) => {
      await sameAnswers(kind === answered, sent)
    })

    it.each<[string, (tags: Record<string, string>) => string, number]>([
      ['br', (tags) => tags.br as string, 304],
      ['br', (tags) => tags.identity as string, 200],
      ['gzip', (tags) => `"another", ${tags.gzip}`, 304],
      ['gzip', (tags) => tags.br as string, 200],
      ['identity', (tags) => tags.br as string, 200],
      ['identity', (tags) => tags.identity as string, 304],
    ])(
      'answered directly: GET /items in %s with If-None-Match gets the same answer',
      async (acceptEncoding, header, status) => {
        const tags: Record<string, string> = {}
        for (const coding of ['br', 'gzip', 'identity']) {
          const sent = { path: '/items', headers: { 'accept-encoding': coding } }
          tags[coding] = String((await servers.viaApp().send(sent)).headers.etag)
        }
        const headers = { 'accept-encoding': acceptEncoding, 'if-none-match': header(tags) }
        const answer = await sameAnswers(true, { path: '/items', headers })
        expect(answer.status).toBe(status)
        expect(answer.headers.vary).toBe(vary)
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

function preflightFrom(origin: string): Record<string, string> {
  return { origin, 'access-control-request-method': 'PUT' }
}
