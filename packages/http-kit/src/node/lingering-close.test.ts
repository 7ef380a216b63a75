import type { Server } from 'node:http'
import { RawConnection, rawRequest } from '@movies-and-mail/test-kit'
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
 * its reading stopped there (as the kit's JSON body check does). Resolves with its URL.
 */
async function uploads(bounds: Partial<Lingering> = {}): Promise<string> {
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
  return `http://127.0.0.1:${listening.port}`
}

/** A client still sending: its side stays open when the server ends its own. */
const client = (url: string) => RawConnection.open(url, { halfOpen: true })

/** Resolves once the server holds no connection: it closed its socket, not only its side. */
async function released(): Promise<void> {
  const count = () =>
    new Promise<number>((resolve) => server?.getConnections((_, n) => resolve(n ?? 0)))
  while ((await count()) > 0) await new Promise((resolve) => setTimeout(resolve, 10))
}

/** The request's head, and `body` after it. */
const upload = (headers: Record<string, string>, body: string | Uint8Array = '') =>
  rawRequest('POST', '/uploads', { host: 'localhost', ...headers }, body)

const megabytes = (n: number) => Buffer.alloc(n * 1024 * 1024, 'x')

/** `body` as one chunk of chunked encoding, and the last chunk when `last`. */
const chunked = (body: Buffer, last = true) =>
  Buffer.concat([
    Buffer.from(`${body.length.toString(16)}\r\n`),
    body,
    Buffer.from(last ? '\r\n0\r\n\r\n' : '\r\n'),
  ])

const refused = { status: 413, body: '{"error":"too large"}' }
const what = (answer: Awaited<ReturnType<RawConnection['answer']>>) => ({
  status: answer?.status,
  body: String(answer?.body),
})

describe('closeLingering, through listen', () => {
  // As Node's `fetch` and `http.request` may: the whole body written before the answer is read.
  it('lets a client that writes its whole body first read the 413 given before it', async () => {
    const url = await uploads()
    for (const [headers, body] of [
      [{ 'content-length': String(8 * 1024 * 1024) }, megabytes(8)],
      [{ 'transfer-encoding': 'chunked' }, chunked(megabytes(8))],
    ] as const) {
      const connection = await client(url)
      expect(await connection.send(upload(headers, body)), JSON.stringify(headers)).toBeUndefined()
      expect(what(await connection.answer())).toEqual(refused)
      await released()
      connection.destroy()
    }
  })

  it('closes once the body has come, without waiting for the client to close', async () => {
    const connection = await client(await uploads({ totalMs: 60_000, idleMs: 60_000 }))
    await connection.send(upload({ 'content-length': String(1024 * 1024) }, megabytes(1)))
    await released()
    expect(what(await connection.answer())).toEqual(refused)
  })

  it('closes a connection whose client stops sending after idleMs', async () => {
    const connection = await client(await uploads({ totalMs: 60_000, idleMs: 200 }))
    await connection.send(upload({ 'content-length': String(1024 * 1024) }, 'x'.repeat(1000)))
    await released()
    expect(what(await connection.answer())).toEqual(refused)
  })

  it('closes a connection whose client never stops sending after totalMs', async () => {
    const connection = await client(await uploads({ totalMs: 300, idleMs: 60_000 }))
    const first = chunked(Buffer.alloc(limit + 1, 'x'), false)
    await connection.send(upload({ 'transfer-encoding': 'chunked' }, first))
    const trickle = setInterval(() => void connection.send('1\r\nx\r\n'), 20)
    await released()
    clearInterval(trickle)
    expect(what(await connection.answer())).toEqual(refused)
  })

  it('closes a connection whose client sends more than maxBytes', async () => {
    const url = await uploads({ maxBytes: 1024 * 1024, totalMs: 60_000, idleMs: 60_000 })
    const connection = await client(url)
    const sent = await connection.send(
      upload({ 'content-length': String(64 * 1024 * 1024) }, megabytes(64)),
    )
    expect(sent).toBeDefined()
    await released()
  })

  it('closes at once a connection whose request was whole', async () => {
    const connection = await client(await uploads({ totalMs: 60_000, idleMs: 60_000 }))
    await connection.send(upload({ 'content-length': '2', connection: 'close' }, 'hi'))
    await released()
    expect(what(await connection.answer())).toEqual({ status: 200, body: '{"length":2}' })
  })

  it('is ended by a stop, the answer already given', async () => {
    const connection = await client(await uploads({ totalMs: 60_000, idleMs: 60_000 }))
    await connection.send(upload({ 'content-length': String(1024 * 1024) }))
    expect(what(await connection.answer())).toEqual(refused)
    // Every connection closed, none cut at the deadline: the lingering one ended at once.
    expect(await closeServer(server as Server, 10_000)).toEqual({ cut: 0 })
  })
})
