import { createServer } from 'node:net'

/**
 * A port no one listens on now, for a server that must be told its port (wrangler dev, a page's
 * server), below the ports the system hands out for port 0 (32768 and up on Linux): one taken
 * from that range and let go could be handed to another server of the tests (a Miniflare, a
 * service) before the server it is for binds it, and the tests would then talk to that one.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    const server = createServer()
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => resolve(true))
    })
    if (bound) {
      await new Promise((resolve) => server.close(resolve))
      return port
    }
  }
}
