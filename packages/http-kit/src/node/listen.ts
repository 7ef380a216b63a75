import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'

export type Listening = { server: Server; address: string; port: number }

/**
 * Serves `fetch` (a Hono app's) on node:http at `host`:`port`, resolving once it listens. A
 * port in use, or any other failure to listen, rejects, so that it fails the start like any
 * other start error instead of surfacing as an unhandled `'error'` event.
 * @example const { server, port } = await listen(app.fetch, { port: 0, host: '127.0.0.1' })
 */
export function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  {
    port,
    host,
    front = (listener) => listener,
  }: {
    port: number
    host: string
    /** Wraps the app's listener, for answers node:http gives on its own (see items' reads). */
    front?: (app: RequestListener) => RequestListener
  },
): Promise<Listening> {
  // A request without a Host header gets the listening host, as `serve()` of the adapter does.
  const server = createServer(front(getRequestListener(fetch, { hostname: host })))
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} is in use`) : error)
    })
    server.listen(port, host, () => {
      const { address, port } = server.address() as AddressInfo
      resolve({ server, address, port })
    })
  })
}
