import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Registry } from 'prom-client'

/** Where a service's metrics are served: METRICS_PORT, on METRICS_HOST. */
export type MetricsAddress = { port: number; host: string }

/**
 * Serves `GET /metrics` (Prometheus' text exposition of `registry`) on a listener of its own,
 * apart from the API's port, so that what the API serves never includes the metrics and a
 * scraper is let in by the network, not by the API's keys. Anything else answers 404; a method
 * other than GET or HEAD on `/metrics`, 405. Resolves once it listens; a port in use rejects.
 * @example const { server, port } = await listenForMetrics(registry, { port: 9464, host: '127.0.0.1' })
 */
export function listenForMetrics(
  registry: Registry,
  { port, host }: MetricsAddress,
): Promise<{ server: Server; address: string; port: number }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n')
      return
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end()
      return
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType })
        response.end(request.method === 'HEAD' ? undefined : text)
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' })
        response.end(`metrics could not be collected: ${String(error)}\n`)
      },
    )
  })
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`METRICS_PORT ${port} is in use`) : error)
    })
    server.listen(port, host, () => {
      const { address, port } = server.address() as AddressInfo
      resolve({ server, address, port })
    })
  })
}
