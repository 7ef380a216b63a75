import type { Server } from 'node:http'
import { connect, type Socket } from 'node:net'
import { rawRequest } from '@movies-and-mail/test-kit'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { closeServer } from './close-server.js'
import { defaultLingering, type Lingering } from './lingering-close.js'
import { listen } from './listen.js'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

const limit = 64 * 1024

/**
 * An upload route that answers 413 with `Connection: close` before the body is all in: at once
 * past a declared length, and past `limit` bytes of a chunked body it reads as a web stream,
 * its reading stopped there (as the kit's JSON body check does).
 */
async function uploads(bounds: Partial<Lingering> = {}): Promise<number> {
  const app = new Hono().post('/uploads', async (c) => {
    const tooLarge = () => c.json({ error: 'too large' }, 413, { connection: 'close' })
    if (Number(c.req.header('content-length')) > limit) return tooLarge()
    const reader = c.req.raw.body?.getReader()
    let length = 0
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
      length += read.value.byteLength
      if (length > limit) {
        reader?.cancel().catch(() => {})
        return tooLarge()
      }
    }
    return c.json({ length })
  })
  const lingering = { ...defaultLingering, ...bounds }
  const listening = await listen(app.fetch, { port: 0, host: '127.0.0.1', lingering })
  server = listening.server
  return listening.port
}

/** A client connection: what it received, whether its writes failed, when the server's side ended. */
class Client {
  received = ''
  error: string | undefined
  readonly ended: Promise<void>
  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1')
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.error = error.code
    })
    this.ended = new Promise((resolve) => socket.once('end', () => resolve()))
  }

  /** Half-open: the server's close of its side does not close this one, as a client still sending. */
  static async open(port: number): Promise<Client> {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
    await new Promise((resolve) => socket.once('connect', resolve))
    return new Client(socket)
  }

  /** Writes `bytes`; resolves with the write's error code, or 'written'. */
  write(bytes: Uint8Array): Promise<string> {
    return new Promise((resolve) => {
      this.socket.write(bytes, (error?: NodeJS.ErrnoException | null) =>
        resolve(error ? (error.code ?? 'failed') : 'written'),
      )
    })
  }

  get status(): string {
    return this.received.split('\r\n')[0] ?? ''
  }
}

/** Resolves once the server holds no connection: it closed its socket, not only its side. */
async function released(): Promise<void> {
  const count = () =>
    new Promise<number>((resolve) => server?.getConnections((_, n) => resolve(n ?? 0)))
  while ((await count()) > 0) await new Promise((resolve) => setTimeout(resolve, 10))
}

const head = (headers: Record<string, string>) =>
  rawRequest('POST', '/uploads', { host: 'localhost', ...headers })

const megabytes = (n: number) => Buffer.alloc(n * 1024 * 1024, 'x')

/** `body` as one chunk of chunked encoding, then the last chunk. */
const chunked = (body: Buffer) =>
  Buffer.concat([
    Buffer.from(`${body.length.toString(16)}\r\n`),
    body,
    Buffer.from('\r\n0\r\n\r\n'),
  ])

describe('closeLingering, through listen', () => {
  // As Node's `fetch` and `http.request` may: the whole body written before the answer is read.
  it('lets a client that writes its whole body first read the 413 given before it', async () => {
    const port = await uploads()
    for (const [headers, body] of [
      [{ 'content-length': String(8 * 1024 * 1024) }, megabytes(8)],
      [{ 'transfer-encoding': 'chunked' }, chunked(megabytes(8))],
    ] as const) {
      const client = await Client.open(port)
      await client.write(head(headers))
      expect(await client.write(body), JSON.stringify(headers)).toBe('written')
      await released()
      expect(client.status).toBe('HTTP/1.1 413 Payload Too Large')
      expect(client.received).toContain('{"error":"too large"}')
      expect(client.error).toBeUndefined()
    }
  })

  it('closes once the body has come, without waiting for the client to close', async () => {
    const port = await uploads({ totalMs: 60_000, idleMs: 60_000 })
    const client = await Client.open(port)
    await client.write(head({ 'content-length': String(1024 * 1024) }))
    await client.write(megabytes(1))
    await released()
    expect(client.status).toBe('HTTP/1.1 413 Payload Too Large')
  })

  it('closes a connection whose client stops sending after idleMs', async () => {
    const port = await uploads({ totalMs: 60_000, idleMs: 200 })
    const client = await Client.open(port)
    await client.write(head({ 'content-length': String(1024 * 1024) }))
    await client.write(Buffer.alloc(1000, 'x'))
    await released()
    expect(client.status).toBe('HTTP/1.1 413 Payload Too Large')
  })

  it('closes a connection whose client never stops sending after totalMs', async () => {
    const port = await uploads({ totalMs: 300, idleMs: 60_000 })
    const client = await Client.open(port)
    await client.write(head({ 'transfer-encoding': 'chunked' }))
    await client.write(chunked(Buffer.alloc(limit + 1, 'x')).subarray(0, -5))
    const trickle = setInterval(() => client.socket.write('1\r\nx\r\n'), 20)
    await released()
    clearInterval(trickle)
    expect(client.status).toBe('HTTP/1.1 413 Payload Too Large')
  })

  it('closes a connection whose client sends more than maxBytes', async () => {
    const port = await uploads({ maxBytes: 1024 * 1024, totalMs: 60_000, idleMs: 60_000 })
    const client = await Client.open(port)
    await client.write(head({ 'content-length': String(64 * 1024 * 1024) }))
    expect(await client.write(megabytes(64))).not.toBe('written')
    await released()
  })

  it('closes at once a connection whose request was whole', async () => {
    const port = await uploads({ totalMs: 60_000, idleMs: 60_000 })
    const client = await Client.open(port)
    await client.write(head({ 'content-length': '2', connection: 'close' }))
    await client.write(Buffer.from('hi'))
    await released()
    expect(client.status).toBe('HTTP/1.1 200 OK')
    expect(client.received).toContain('{"length":2}')
  })

  it('is ended by a stop, the answer already given', async () => {
    const port = await uploads({ totalMs: 60_000, idleMs: 60_000 })
    const client = await Client.open(port)
    await client.write(head({ 'content-length': String(1024 * 1024) }))
    while (!client.status) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(client.status).toBe('HTTP/1.1 413 Payload Too Large')
    // Every connection closed, none cut at the deadline: the lingering one ended at once.
    expect(await closeServer(server as Server, 10_000)).toEqual({ cut: 0 })
  })
})
