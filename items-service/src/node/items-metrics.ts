import type { RequestRecord } from '@movies-and-mail/http-kit/app'
import { httpServerMetrics } from '@movies-and-mail/http-kit/node-metrics'
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { ItemStore } from '../store/item-store.js'
import { type StoreOperation, timedItemStore } from '../store/timed-item-store.js'

/** The buckets OpenTelemetry's database conventions give `db.client.operation.duration`. */
const storeBuckets = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10]

/** The refusals an operator watches, by the status that says why (the API's own statuses). */
const refusalReasons: Record<number, string> = {
  401: 'unauthorized',
  403: 'forbidden',
  409: 'conflict',
  412: 'precondition_failed',
  413: 'content_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  507: 'insufficient_storage',
}

export type ItemsMetrics = {
  registry: Registry
  /** The app's `onResponse`: the HTTP histogram and the refusals. */
  onResponse: (record: RequestRecord) => void
  /** `store` with its operations timed into `db_client_operation_duration_seconds`. */
  timed: (store: ItemStore) => ItemStore
}

/**
 * items-service's Prometheus metrics on Node: the kit's HTTP and process metrics, the store's
 * operations by name and database (OpenTelemetry's `db.client.operation.duration`, with
 * `db_system_name` `lmdb` for the embedded store or `mongodb`), the change feed's followers and
 * the events handed to them (read from the feed when scraped: nothing on the request path), and
 * the refusals by reason.
 * @example const metrics = itemsMetrics({ database: 'lmdb', feed: () => store.changes })
 */
export function itemsMetrics({
  database,
  feed,
}: {
  database: 'lmdb' | 'mongodb'
  /** The store's change feed, read at each scrape; absent when the store has none. */
  feed: () => { followers: number; eventsSent: number } | undefined
}): ItemsMetrics {
  const http = httpServerMetrics()
  const registers = [http.registry]
  const operations = new Histogram<'db_system_name' | 'db_operation_name' | 'outcome'>({
    name: 'db_client_operation_duration_seconds',
    help: "Duration of the item store's operations, by database and operation; outcome error when it threw.",
    labelNames: ['db_system_name', 'db_operation_name', 'outcome'],
    buckets: storeBuckets,
    registers,
  })
  new Gauge({
    name: 'items_change_feed_followers',
    help: 'Change-feed streams open now (GET /items/events).',
    registers,
    collect() {
      this.set(feed()?.followers ?? 0)
    },
  })
  new Counter({
    name: 'items_change_feed_events_sent_total',
    help: 'Change-feed events handed to followers, live or replayed on reconnect.',
    registers,
    collect() {
      this.reset()
      this.inc(feed()?.eventsSent ?? 0)
    },
  })
  const refusals = new Counter<'reason'>({
    name: 'items_refusals_total',
    help: 'Requests refused, by reason (the status: 401, 403, 409, 412, 413, 415, 429, 507).',
    labelNames: ['reason'],
    registers,
  })
  const refusalCounters = new Map(
    Object.entries(refusalReasons).map(([status, reason]) => [
      Number(status),
      refusals.labels({ reason }),
    ]),
  )
  for (const counter of refusalCounters.values()) counter.inc(0)
  // A child per operation and outcome, made once: prom-client's `labels()` checks the names and
  // makes the child's functions anew on every call.
  const children = new Map<string, Histogram.Internal<string>>()
  const timing = (operation: StoreOperation, seconds: number, failed: boolean) => {
    const outcome = failed ? 'error' : 'ok'
    const key = failed ? `${operation} error` : operation
    let child = children.get(key)
    if (child === undefined) {
      child = operations.labels(database, operation, outcome)
      children.set(key, child)
    }
    child.observe(seconds)
  }
  return {
    registry: http.registry,
    onResponse: (record) => {
      http.observe(record)
      refusalCounters.get(record.status)?.inc()
    },
    timed: (store) => timedItemStore(store, timing),
  }
}
