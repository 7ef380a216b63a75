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
