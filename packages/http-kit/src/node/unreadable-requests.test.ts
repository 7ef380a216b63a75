import type { Server } from 'node:http'
import { RawConnection, rawRequest } from '@movies-and-mail/test-kit'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from './listen.js'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

async function service(): Promise<string> {
  const app = new Hono().get('/things', (c) => c.json([]))
  const listening = await listen(app.fetch, { port: 0, host: '127.0.0.1' })
  server = listening.server
  return `http://127.0.0.1:${listening.port}`
}

/** `bytes` on a connection of their own: the answer, and whether the server closed after it. */
async function answerTo(url: string, bytes: string | Buffer) {
  const connection = await RawConnection.open(url)
  await connection.send(bytes)
  const answer = await connection.answer()
  const closed = (await connection.answer({ waitMs: 1_000 })) === null && connection.closed
  connection.destroy()
  return { answer, closed }
}

const jsonError = (answer: Awaited<ReturnType<typeof answerTo>>['answer']) => ({
  status: answer?.status,
  type: answer?.headers['content-type'],
  nosniff: answer?.headers['x-content-type-options'],
  id: answer?.headers['x-request-id'],
  body: JSON.parse(String(answer?.body)),
})

describe('listen, to what node:http cannot read as a request', () => {
  it.each([
    ['a lowercase method', 'get /things HTTP/1.1\r\nhost: x\r\n\r\n'],
    ['a method no one knows', 'FETCHX /things HTTP/1.1\r\nhost: x\r\n\r\n'],
    ['a target that is no path', 'GET ?x HTTP/1.1\r\nhost: x\r\n\r\n'],
    ['a header without a colon', 'GET /things HTTP/1.1\r\nhost x\r\n\r\n'],
    [
      'a chunk size that is no number',
      'POST /things HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
    ],
  ])('answers %s 400 in JSON, then closes', async (_, bytes) => {
    const { answer, closed } = await answerTo(await service(), bytes)
    expect(jsonError(answer)).toEqual({
      status: 400,
      type: 'application/json',
      nosniff: 'nosniff',
      id: expect.stringMatching(/^[0-9a-f]{6}-\w+$/),
      body: { error: 'malformed request' },
    })
    expect(closed).toBe(true)
  })

  it('answers headers over the limit 431 in JSON', async () => {
    const head = rawRequest('GET', '/things', { host: 'x', 'x-big': 'a'.repeat(20_000) })
    const { answer } = await answerTo(await service(), head)
    expect(jsonError(answer)).toMatchObject({
      status: 431,
      body: { error: 'request headers too large' },
    })
  })

  it('answers a chunk extension over the limit 413 in JSON', async () => {
    const { answer } = await answerTo(
      await service(),
      `POST /things HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n1;${'a'.repeat(20_000)}\r\nx\r\n0\r\n\r\n`,
    )
    expect(jsonError(answer)).toMatchObject({
      status: 413,
      body: { error: 'chunk extensions too large' },
    })
  })

  it('answers 408 in JSON to headers not whole within the request timeout', async () => {
    const app = new Hono().get('/things', (c) => c.json([]))
    const listening = await listen(app.fetch, { port: 0, host: '127.0.0.1', requestTimeoutMs: 400 })
    server = listening.server
    const connection = await RawConnection.open(`http://127.0.0.1:${listening.port}`)
    await connection.send('GET /things HTTP/1.1\r\nhost: x\r\n')
    const answer = await connection.answer({ waitMs: 3_000 })
    connection.destroy()
    expect(jsonError(answer)).toMatchObject({
      status: 408,
      body: { error: 'request not complete in time' },
    })
  })

  it('answers CONNECT 400 in JSON: this is not a proxy', async () => {
    const { answer, closed } = await answerTo(
      await service(),
      'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n',
    )
    expect(jsonError(answer)).toMatchObject({
      status: 400,
      body: { error: 'CONNECT is for proxies, and this is not one' },
    })
    expect(closed).toBe(true)
  })

  it.each([
    ['an asterisk for a GET', 'GET * HTTP/1.1\r\nhost: x\r\n\r\n', 'Invalid URL'],
    ['a Host header that is no host', 'GET /things HTTP/1.1\r\nhost: a b\r\n\r\n', 'Invalid URL'],
    [
      'a backslash in the path',
      'GET /a\\b HTTP/1.1\r\nhost: x\r\n\r\n',
      'Backslash in request path',
    ],
  ])(
    'answers %s, which the adapter cannot make a request of, 400 in JSON',
    async (_, bytes, why) => {
      const { answer } = await answerTo(await service(), bytes)
      expect(jsonError(answer)).toMatchObject({
        status: 400,
        nosniff: 'nosniff',
        body: { error: `malformed request: ${why}` },
      })
    },
  )

  it('answers 500 in JSON when the fetch handed to it fails', async () => {
    const failing = () => Promise.reject(new Error('no onError caught this'))
    const listening = await listen(failing, { port: 0, host: '127.0.0.1' })
    server = listening.server
    const { answer } = await answerTo(
      `http://127.0.0.1:${listening.port}`,
      'GET /things HTTP/1.1\r\nhost: x\r\n\r\n',
    )
    expect(jsonError(answer)).toMatchObject({ status: 500, body: { error: 'internal error' } })
  })

  it('answers what came before it on the connection first, in order, then itself', async () => {
    const later = new Hono().get('/later/:n', async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 50))
      return c.json({ n: c.req.param('n') })
    })
    const listening = await listen(later.fetch, { port: 0, host: '127.0.0.1' })
    server = listening.server
    const connection = await RawConnection.open(`http://127.0.0.1:${listening.port}`)
    const get = (n: number) => `GET /later/${n} HTTP/1.1\r\nhost: x\r\n\r\n`
    await connection.send(`${get(1)}${get(2)}get /later/3 HTTP/1.1\r\nhost: x\r\n\r\n`)
    const answers = [
      await connection.answer(),
      await connection.answer(),
      await connection.answer(),
    ]
    expect(answers.map((answer) => [answer?.status, JSON.parse(String(answer?.body))])).toEqual([
      [200, { n: '1' }],
      [200, { n: '2' }],
      [400, { error: 'malformed request' }],
    ])
    expect(await connection.answer({ waitMs: 1_000 })).toBeNull()
    expect(connection.closed).toBe(true)
  })

  it('answers a request whose body breaks with the refusal, after the answers owed before it', async () => {
    const later = new Hono()
      .get('/later', async (c) => {
        await new Promise((resolve) => setTimeout(resolve, 50))
        return c.json({ first: true })
      })
      .post('/things', async (c) => c.json({ got: await c.req.text() }))
    const listening = await listen(later.fetch, { port: 0, host: '127.0.0.1' })
    server = listening.server
    const connection = await RawConnection.open(`http://127.0.0.1:${listening.port}`)
    await connection.send(
      'GET /later HTTP/1.1\r\nhost: x\r\n\r\n' +
        'POST /things HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
    )
    const answers = [await connection.answer(), await connection.answer()]
    expect(answers.map((answer) => [answer?.status, JSON.parse(String(answer?.body))])).toEqual([
      [200, { first: true }],
      [400, { error: 'malformed request' }],
    ])
    expect(await connection.answer({ waitMs: 1_000 })).toBeNull()
    expect(connection.closed).toBe(true)
  })

  it('still answers a readable request on the same server', async () => {
    const { answer } = await answerTo(await service(), 'GET /things HTTP/1.1\r\nhost: x\r\n\r\n')
    expect(answer?.status).toBe(200)
  })
})
