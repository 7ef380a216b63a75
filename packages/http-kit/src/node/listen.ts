import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { answerHalfClosedClients } from './half-close.js'
import { closeLingering, defaultLingering, type Lingering } from './lingering-close.js'
import { adapterErrorResponse, answerUnreadableRequests } from './unreadable-requests.js'

export type Listening = { server: Server; address: string; port: number }

type Fetch = (request: Request) => Response | Promise<Response>

/**
 * Serves `app` (a Hono app's `fetch`) on node:http at `host`:`port`, resolving once it listens.
 * A port in use, or any other failure to listen, rejects, so that it fails the start like any
 * other start error instead of surfacing as an unhandled `'error'` event.
 *
 * `app` may still be loading (a promise): the server listens meanwhile, and requests wait for
 * the app. The caller awaits the same promise, so that a load failure fails the start; the
 * waiting requests then end with the process.
 * @example const { server, port } = await listen(app.fetch, { port: 0, host: '127.0.0.1' })
 */
export function listen(
  app: Fetch | Promise<Fetch>,
  {
    port,
    host,
    requestTimeoutMs = 300_000,
    maxConnections = Number.POSITIVE_INFINITY,
    lingering = defaultLingering,
  }: {
    port: number
    host: string
    /**
     * How long node:http waits for a whole request, behind the app's own BODY_TIMEOUT_MS (a 408
     * it answers in JSON): for what the app does not read. Headers get at most a minute of it.
     */
    requestTimeoutMs?: number
    /** Connections beyond this many are closed as they come: the process keeps descriptors. */
    maxConnections?: number
    /** How long a connection closing on a body still coming reads it first (`closeLingering`). */
    lingering?: Lingering
  },
): Promise<Listening> {
  // A request without a Host header gets the listening host, as `serve()` of the adapter does.
  const listenerOf = (fetch: Fetch) =>
    getRequestListener(fetch, { hostname: host, errorHandler: adapterErrorResponse })
  let appListener: RequestListener | undefined
  const loaded = Promise.resolve(app).then((fetch) => {
    appListener = listenerOf(fetch)
    return appListener
  })
  // The caller handles a failed load; the requests waiting on it get no answer.
  loaded.catch(() => {})
  const server = createServer({
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(60_000, requestTimeoutMs),
    // node:http looks for timed-out requests every 30 s; a shorter timeout is looked at twice.
    connectionsCheckingInterval: Math.min(30_000, requestTimeoutMs / 2),
  })
  server.maxConnections = maxConnections
  answerHalfClosedClients(server)
  answerUnreadableRequests(server)
  const track = closeLingering(server, lingering)
  const whenLoaded: RequestListener = (request, response) => {
    track(request)
    if (appListener) return appListener(request, response)
    loaded.then(
      (listener) => listener(request, response),
      () => {},
    )
  }
  server.on('request', whenLoaded)
  // `Expect: 100-continue`: node:http would send `100 Continue` before the app saw the request,
  // and the client its body to a request the app refuses on its headers (a wrong key). The
  // request goes to the app at once instead, and `100 Continue` only once the app starts
  // reading the body; a refusal on the headers is the only answer the client gets.
  server.on('checkContinue', (request, response) => {
    request.once('resume', () => {
      if (!response.headersSent) response.writeContinue()
    })
    whenLoaded(request, response)
  })
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

/**
 * The URL of the address a server listens on, whether that is every interface, and a URL this
 * machine can open (the loopback when it listens everywhere): what a start-up banner prints.
 */
export function reachableAt(
  address: string,
  port: number,
): { url: string; everywhere: boolean; local: string } {
  const url = (host: string) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  const everywhere = address === '0.0.0.0' || address === '::'
  const loopback = address === '::' ? '::1' : '127.0.0.1'
  return { url: url(address), everywhere, local: url(everywhere ? loopback : address) }
}
