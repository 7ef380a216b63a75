import { Agent, createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { closeServer } from './close-server.js'

let server: Server
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
})

/** A server that answers at once, except /trickle, whose body it waits for to the end. */
async function listen(): Promise<number> {
  server = createServer((req, res) => {
    if (req.url !== '/trickle') return void res.end('ok')
    req.resume().on('end', () => res.end('all of it'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** Sends the first byte of a 100-byte body and never the rest. */
function trickle(port: number): void {
  const upload = request({ port, host: '127.0.0.1', path: '/trickle', method: 'POST' })
  upload.setHeader('content-length', '100')
  upload.on('error', () => {})
  upload.write('x')
}

describe('closeServer', () => {
  it('resolves at once when nothing is in flight, idle keep-alive connections included', async () => {
    const port = await listen()
    const agent = new Agent({ keepAlive: true })
    await new Promise((resolve) =>
      request({ port, host: '127.0.0.1', agent }, (res) => res.resume().on('end', resolve)).end(),
    )
    const started = performance.now()
    expect(await closeServer(server, 5_000)).toEqual({ cut: 0 })
    expect(performance.now() - started).toBeLessThan(1_000)
    agent.destroy()
  })

  it('cuts a request still in flight at the deadline, and says so', async () => {
    const port = await listen()
    trickle(port)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const started = performance.now()
    expect(await closeServer(server, 300)).toEqual({ cut: 1 })
    const took = performance.now() - started
    expect(took).toBeGreaterThanOrEqual(290)
    expect(took).toBeLessThan(1_500)
  })

  it('stops accepting new connections at once', async () => {
    const port = await listen()
    trickle(port)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const closed = closeServer(server, 500)
    const refused = await new Promise<boolean>((resolve) => {
      const probe = request({ port, host: '127.0.0.1', agent: false }, () => resolve(false))
      probe.on('error', () => resolve(true)).end()
    })
    expect(refused).toBe(true)
    await closed
  })
})
