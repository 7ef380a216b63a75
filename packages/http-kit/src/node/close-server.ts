import type { Server } from 'node:http'
import { endLingering } from './lingering-close.js'

/** How a server's stop went: `cut` connections still had a request in flight at the deadline. */
export type Closed = { cut: number }

/**
 * Stops `server` accepting, lets the requests in flight finish for at most `timeoutMs`, then
 * closes the connections still open (a client that trickles a body never to end it must not
 * keep the process). Resolves once every connection is closed.
 * @example const { cut } = await closeServer(server, 10_000)
 */
export function closeServer(server: Server, timeoutMs: number): Promise<Closed> {
  return new Promise((resolve) => {
    let cut = 0
    // Idle keep-alive connections would hold close() open, and so would those that go idle
    // after finishing a request in flight, or linger after their answer: close them as they come.
    const closeIdle = () => {
      server.closeIdleConnections()
      endLingering(server)
    }
    const sweep = setInterval(closeIdle, 100)
    const deadline = setTimeout(() => {
      closeIdle()
      server.getConnections((_, count) => {
        cut = count ?? 0
        server.closeAllConnections()
      })
    }, timeoutMs)
    server.close(() => {
      clearInterval(sweep)
      clearTimeout(deadline)
      resolve({ cut })
    })
    closeIdle()
  })
}
