import type { ErrorRecord } from './errors.js'
import { redactText } from './redact.js'
import { observers, type RequestRecord } from './request-log.js'
import { workerErrorLog, workerRequestLog } from './worker-request-log.js'

/**
 * What a Workers Analytics Engine dataset binding offers (`[[analytics_engine_datasets]]` in
 * wrangler.toml): `writeDataPoint` queues the point and returns at once.
 */
export type AnalyticsEngineDataset = {
  writeDataPoint(point: { indexes?: string[]; blobs?: string[]; doubles?: number[] }): void
}

/** The dataset a Worker's bindings hold under `name`, when one is configured there. */
export function analyticsDatasetOf(
  bindings: Record<string, unknown>,
  name = 'ANALYTICS',
): AnalyticsEngineDataset | undefined {
  const binding = bindings[name] as Partial<AnalyticsEngineDataset> | undefined
  return typeof binding?.writeDataPoint === 'function'
    ? (binding as AnalyticsEngineDataset)
    : undefined
}

/**
 * An `onResponse` writing one data point per request to `dataset`: blob1 `request`, blob2 the
 * method, blob3 the route's template (empty when no route matched), blob4 the status; double1
 * the duration in ms, double2 the status; the index (the sampling key) is the route. What
 * Prometheus' `http_server_request_duration_seconds` says on Node, queried with SQL.
 * @example onResponse: analyticsEngineRequests(env.ANALYTICS)
 */
export function analyticsEngineRequests(
  dataset: AnalyticsEngineDataset,
): (record: RequestRecord) => void {
  return ({ method, route = '', status, durationMs }) => {
    dataset.writeDataPoint({
      indexes: [route],
      blobs: ['request', method, route, String(status)],
      doubles: [durationMs, status],
    })
  }
}

/**
 * `analyticsEngineRequests` on the dataset bound as ANALYTICS, for a response made outside the
 * app (`responseOutsideApp`'s `onResponse`); undefined when none is bound.
 */
export function analyticsEngineRequestsOf(
  bindings: Record<string, unknown>,
): ((record: RequestRecord) => void) | undefined {
  const dataset = analyticsDatasetOf(bindings)
  return dataset && analyticsEngineRequests(dataset)
}

/**
 * A Worker app's log options (the kit's `createServiceApp`'s): no text line; each request as an
 * object on the console (`workerRequestLog`) and, when a dataset is bound, as a data point
 * (`analyticsEngineRequests`); each unexpected error as an object, the settings' secrets
 * redacted too.
 * @example createApp({ ...workerAppLog({ secrets, analytics: analyticsDatasetOf(env) }), ... })
 */
export function workerAppLog({
  secrets,
  analytics,
}: {
  secrets: readonly string[]
  analytics?: AnalyticsEngineDataset | undefined
}) {
  return {
    log: null,
    onResponse: observers(workerRequestLog, analytics && analyticsEngineRequests(analytics)),
    onError: (record: ErrorRecord) =>
      workerErrorLog({ ...record, error: redactText(record.error, secrets) }),
  }
}
