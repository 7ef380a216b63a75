import { collectDefaultMetrics, Histogram, Registry } from 'prom-client'
import type { RequestRecord } from '../request-log.js'

/** The buckets OpenTelemetry's HTTP semantic conventions give `http.server.request.duration`. */
export const httpDurationBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
]

/** The methods the conventions name; any other is `_OTHER`, so no client makes a label up. */
const knownMethods = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
])

type HttpLabels = 'http_request_method' | 'http_route' | 'http_response_status_code'

/**
 * A service's Prometheus registry with the process's own metrics (prom-client's defaults) and
 * `http_server_request_duration_seconds`: OpenTelemetry's `http.server.request.duration` in
 * Prometheus form, by method, route template and status. `observe` is the app's `onResponse`:
 * synchronous, prom-client's `observe` on a child kept per label set (about 1 µs a request).
 * Labels are bounded by construction: a method outside
 * the conventions' list is `_OTHER`, a request no route matched has no `http_route`, and the
 * status is one of a few hundred numbers.
 * @example const metrics = httpServerMetrics(); createApp({ onResponse: metrics.observe })
 */
export function httpServerMetrics({ registry = new Registry() }: { registry?: Registry } = {}): {
  registry: Registry
  observe: (record: RequestRecord) => void
} {
  collectDefaultMetrics({ register: registry })
  const duration = new Histogram<HttpLabels>({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests, by method, route template and status.',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
    buckets: httpDurationBuckets,
    registers: [registry],
  })
  // A child per label set, found by three lookups on what the record holds as it is (the method,
  // the status, the route's own string): no key is built per request.
  type Child = Histogram.Internal<HttpLabels>
  const children = new Map<string, Map<number, Map<string | undefined, Child>>>()
  const childOf = (given: string, status: number, route: string | undefined): Child => {
    const method = knownMethods.has(given) ? given : '_OTHER'
    let byStatus = children.get(method)
    if (byStatus === undefined) {
      byStatus = new Map()
      children.set(method, byStatus)
    }
    let byRoute = byStatus.get(status)
    if (byRoute === undefined) {
      byRoute = new Map()
      byStatus.set(status, byRoute)
    }
    let child = byRoute.get(route)
    if (child === undefined) {
      child = duration.labels({
        http_request_method: method,
        http_response_status_code: status,
        ...(route !== undefined && { http_route: route }),
      })
      byRoute.set(route, child)
    }
    return child
  }
  return {
    registry,
    observe: ({ method, route, status, durationMs }) => {
      childOf(method, status, route).observe(durationMs / 1000)
    },
  }
}
