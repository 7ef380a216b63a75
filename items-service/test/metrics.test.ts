import { type BuiltEntry, killBuiltEntries, ScrapedMetrics } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { failedStart, startService, temporaryDataDir } from './support/built-service.js'
import { EventReader } from './support/event-reader.js'

const apiKey = 'metrics-test-key-1'
const json = { 'content-type': 'application/json' }
const histogram = 'http_server_request_duration_seconds'

afterEach(killBuiltEntries)

/** The built service with its metrics on a port of their own, and that port's URL. */
async function startWithMetrics(env: Record<string, string> = {}) {
  const service = await startService({
    DATA_DIR: await temporaryDataDir(),
    ITEMS_APIKEY: apiKey,
    METRICS_PORT: '0',
    ...env,
  })
  const metricsUrl = /metrics: (http:\/\/[\d.]+:\d+\/metrics)/.exec(service.stdout)?.[1]
  if (!metricsUrl) throw new Error(`no metrics line in:\n${service.stdout}`)
  return { service, scrape: () => ScrapedMetrics.from(metricsUrl), metricsUrl }
}

function create(service: BuiltEntry, id: string) {
  return fetch(`${service.url}/items`, {
    method: 'POST',
    headers: { ...json, 'x-apikey': apiKey },
    body: JSON.stringify({ id, name: `Movie ${id}`, genre: 'Drama' }),
  })
}

describe('METRICS_PORT', () => {
  it("counts 50 reads under the route's template, split by status", async () => {
    const { service, scrape } = await startWithMetrics()
    expect((await create(service, 'tt1')).status).toBe(201)
    const read = { http_request_method: 'GET', http_route: '/items/:id' }
    const before = await scrape()
    for (let n = 0; n < 50; n++) {
      const response = await fetch(`${service.url}/items/${n % 5 === 0 ? `missing${n}` : 'tt1'}`)
      await response.arrayBuffer()
    }
    const after = await scrape()
    const added = (status: string) =>
      after.value(histogram, { ...read, http_response_status_code: status }) -
      before.value(histogram, { ...read, http_response_status_code: status })
    expect(added('200')).toBe(40)
    expect(added('404')).toBe(10)
    expect(after.family(histogram)?.type).toBe('histogram')
    // The conventions' buckets, and the store's own time for each read, by operation.
    const [sample] = after.samples(histogram, { ...read, http_response_status_code: '200' })
    expect(sample && 'buckets' in sample ? Object.keys(sample.buckets) : []).toEqual(
      expect.arrayContaining(['0.005', '0.01', '0.025', '0.05', '0.075', '0.1', '0.25', '10']),
    )
    const finds = { db_system_name: 'lmdb', db_operation_name: 'find' }
    expect(after.value('db_client_operation_duration_seconds', finds)).toBeGreaterThanOrEqual(50)
    expect(after.value('process_cpu_seconds_total')).toBeGreaterThan(0)
  })

  it('keeps every label a template or a fixed value after 1,000 distinct ids and paths', async () => {
    const { service, scrape } = await startWithMetrics()
    const ids = Array.from(
      { length: 1000 },
      (_, n) => `id${n}x${Math.random().toString(36).slice(2)}`,
    )
    for (let start = 0; start < ids.length; start += 50) {
      await Promise.all(
        ids.slice(start, start + 50).map(async (id, n) => {
          const path = n % 2 === 0 ? `/items/${id}` : `/no/such/${id}`
          const method = n % 10 === 1 ? 'PROPFIND' : 'GET'
          await (await fetch(`${service.url}${path}`, { method })).arrayBuffer()
        }),
      )
    }
    const metrics = await scrape()
    const values = metrics.labelValues()
    expect(values.filter((value) => ids.some((id) => value.includes(id)))).toEqual([])
    const series = metrics.samples(histogram)
    expect(series.length).toBeLessThan(10)
    // Unknown paths share one series (no http_route), whatever the path.
    const unrouted = series.filter((sample) => sample.labels.http_route === undefined)
    expect(unrouted.map((sample) => sample.labels.http_request_method).sort()).toEqual([
      'GET',
      '_OTHER',
    ])
    expect(metrics.value(histogram, { http_route: '/items/:id' })).toBe(500)
  })

  it('counts refusals by reason and the change feed by followers and events sent', async () => {
    const { service, scrape } = await startWithMetrics()
    const unauthorized = await fetch(`${service.url}/items`, {
      method: 'POST',
      headers: { ...json, 'x-apikey': 'not-the-key-at-all' },
      body: '{}',
    })
    expect(unauthorized.status).toBe(401)
    expect((await create(service, 'tt1')).status).toBe(201)
    expect((await create(service, 'tt1')).status).toBe(409)
    const feed = await fetch(`${service.url}/items/events`)
    const reader = new EventReader(feed.body)
    await reader.block()
    expect((await create(service, 'tt2')).status).toBe(201)
    expect((await reader.event()).event).toBe('created')
    const metrics = await scrape()
    expect(metrics.value('items_refusals_total', { reason: 'unauthorized' })).toBe(1)
    expect(metrics.value('items_refusals_total', { reason: 'conflict' })).toBe(1)
    expect(metrics.value('items_refusals_total', { reason: 'precondition_failed' })).toBe(0)
    expect(metrics.value('items_change_feed_followers')).toBe(1)
    expect(metrics.value('items_change_feed_events_sent_total')).toBe(1)
    await reader.cancel()
  })

  it("is never served on the API's port", async () => {
    const { service, metricsUrl } = await startWithMetrics()
    const onApi = await fetch(`${service.url}/metrics`)
    expect(onApi.status).toBe(404)
    expect(await onApi.text()).not.toContain('http_server_request_duration_seconds')
    expect(new URL(metricsUrl).port).not.toBe(new URL(service.url).port)
    expect(new URL(metricsUrl).hostname).toBe('127.0.0.1')
    expect((await fetch(metricsUrl.replace('/metrics', '/items'))).status).toBe(404)
  })

  it('is refused at start when it names the API port, and absent when unset', async () => {
    const port = String(20_000 + Math.floor(Math.random() * 20_000))
    const refused = await failedStart({
      DATA_DIR: await temporaryDataDir(),
      PORT: port,
      METRICS_PORT: port,
    })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('METRICS_PORT: must differ from PORT')
    const plain = await startService({ DATA_DIR: await temporaryDataDir() })
    expect(plain.stdout).not.toContain('metrics:')
  })
})
