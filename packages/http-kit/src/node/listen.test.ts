import type { Server } from 'node:http'
import { RawConnection, rawRequest } from '@movies-and-mail/test-kit'
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { listen } from './listen.js'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** A route that refuses a wrong key on its headers, and reads the body of a right one. */
async function guardedService(): Promise<string> {
  const app = new Hono().post('/things', async (c) => {
    if (c.req.header('x-apikey') !== 'right') return c.json({ error: 'Unauthorized' }, 401)
    return c.json({ got: await c.req.text() })
  })
  const listening = await listen(app.fetch, { port: 0, host: '127.0.0.1' })
  server = listening.server
  return `http://127.0.0.1:${listening.port}`
}

const head = (key: string) =>
  rawRequest('POST', '/things', {
    host: 'localhost',
    'x-apikey': key,
    'content-type': 'text/plain',
    'content-length': '5',
    expect: '100-continue',
  })

describe('listen with Expect: 100-continue', () => {
  it('answers a request refused on its headers with the refusal, never 100 Continue', async () => {
    const connection = await RawConnection.open(await guardedService())
    await connection.send(head('wrong'))
    const answer = await connection.answer()
    expect(answer?.status).toBe(401)
    expect(JSON.parse(String(answer?.body))).toEqual({ error: 'Unauthorized' })
    connection.destroy()
  })

  it('sends 100 Continue once the app reads the body, then its answer', async () => {
    const connection = await RawConnection.open(await guardedService())
    await connection.send(head('right'))
    expect((await connection.answer())?.status).toBe(100)
    await connection.send('hello')
    const answer = await connection.answer()
    expect(answer?.status).toBe(200)
    expect(JSON.parse(String(answer?.body))).toEqual({ got: 'hello' })
    connection.destroy()
  })
})

let streamsCancelled = 0

/** Answers each request a little later, as a route that awaits its store does; and a stream. */
async function laterService(): Promise<string> {
  const app = new Hono()
    .get('/later/:n', async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 30))
      return c.json({ n: c.req.param('n') })
    })
    .get('/stream', () => {
      const encoder = new TextEncoder()
      let timer: ReturnType<typeof setInterval> | undefined
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          timer = setInterval(() => controller.enqueue(encoder.encode('data: tick\n\n')), 20)
        },
        cancel() {
          clearInterval(timer)
          streamsCancelled++
        },
      })
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
    })
    .post('/later', async (c) => {
      const body = await c.req.text()
      await new Promise((resolve) => setTimeout(resolve, 30))
      return c.json({ got: body }, 201)
    })
  const listening = await listen(app.fetch, { port: 0, host: '127.0.0.1' })
  server = listening.server
  return `http://127.0.0.1:${listening.port}`
}

const get = (n: number) => rawRequest('GET', `/later/${n}`, { host: 'localhost' })

// A client may end its side once its request is sent: that delimits nothing and does not mean
// it wants no answer (RFC 9112 §9.6).
describe('listen when the client ends its side after its requests', () => {
  it('sends an answer made after the end, then closes', async () => {
    const connection = await RawConnection.open(await laterService())
    connection.end(get(1))
    const answer = await connection.answer()
    expect(answer?.status).toBe(200)
    expect(JSON.parse(String(answer?.body))).toEqual({ n: '1' })
    expect(await connection.answer({ waitMs: 2_000 })).toBeNull()
    expect(connection.closed).toBe(true)
  })

  it('answers a POST whose body came before the end', async () => {
    const connection = await RawConnection.open(await laterService())
    const headers = { host: 'localhost', 'content-type': 'text/plain', 'content-length': '5' }
    connection.end(rawRequest('POST', '/later', headers, 'hello'))
    const answer = await connection.answer()
    expect(answer?.status).toBe(201)
    expect(JSON.parse(String(answer?.body))).toEqual({ got: 'hello' })
  })

  it('answers every request sent before the end, in order, then closes', async () => {
    const connection = await RawConnection.open(await laterService())
    connection.end(Buffer.concat([get(1), get(2), get(3)]))
    for (const n of ['1', '2', '3']) {
      expect(JSON.parse(String((await connection.answer())?.body))).toEqual({ n })
    }
    expect(await connection.answer({ waitMs: 2_000 })).toBeNull()
    expect(connection.closed).toBe(true)
  })

  it('ends an answer already streaming, as from a follower that has gone', async () => {
    const connection = await RawConnection.open(await laterService())
    const before = streamsCancelled
    await connection.send(rawRequest('GET', '/stream', { host: 'localhost' }))
    await new Promise((resolve) => setTimeout(resolve, 100))
    connection.end()
    // Cut, never whole: the connection closed within the wait.
    expect(await connection.answer({ waitMs: 2_000 })).toBeNull()
    expect(connection.closed).toBe(true)
    await vi.waitFor(() => expect(streamsCancelled).toBe(before + 1))
  })

  it('closes an idle connection the client ends', async () => {
    const connection = await RawConnection.open(await laterService())
    connection.end()
    expect(await connection.answer({ waitMs: 2_000 })).toBeNull()
    expect(connection.closed).toBe(true)
  })
})
