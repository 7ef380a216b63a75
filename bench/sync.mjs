// The polled reads of the sync features, loaded on items-service and on the bound alike: GET with
// an If-None-Match of the current tag (304, no body), and GET /items compressed (br, gzip). Each
// server is probed first, so that a run measures the answer it is meant to, or is left out with
// the reason.
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { load } from './load.mjs'
import { send } from './servers.mjs'

/** The sync reads, in table order. */
export const syncEndpoints = [
  'GET /items 304',
  'GET /items/:id 304',
  'GET /items br',
  'GET /items gzip',
]

const decompress = { br: brotliDecompressSync, gzip: gunzipSync }
const labels = { items: 'items-service', bound: 'bound' }

/**
 * Every sync read on items-service and the bound of `servers`, each holding `ids`: a warm-up on
 * each, then `seconds` split into short runs that alternate between the two, first one then the
 * other, so that a slow moment of the machine falls on both. Runs go to `syncRuns`; a read that
 * either server does not serve goes to `syncMissing`, with the reason.
 */
export async function measureSyncReads({
  round,
  servers,
  n,
  ids,
  options,
  say,
  syncRuns,
  syncMissing,
}) {
  const { seconds, warmup } = options
  const pair = { items: servers.items, bound: servers.bound }
  const turns = seconds >= 3 ? 4 : 1
  for (const endpoint of syncEndpoints) {
    const plans = {}
    for (const [key, server] of Object.entries(pair))
      plans[key] = await planSync(endpoint, server, ids)
    const refused = Object.keys(pair).find((key) => plans[key].missing)
    if (refused) {
      const why = `${labels[refused]} ${plans[refused].missing}`
      syncMissing.set(endpoint, { n, why })
      say(`round ${round} ${endpoint} n=${n}: not measured, ${why}`)
      continue
    }
    syncMissing.delete(endpoint)
    const stream = (key, time) => {
      const { cycle, expect } = plans[key]
      return { cycle, expect, seconds: time, generator: 'sockets' }
    }
    for (const key of Object.keys(pair)) await load(pair[key], stream(key, warmup))
    for (let turn = 1; turn <= turns; turn++) {
      const order = turn % 2 ? ['items', 'bound'] : ['bound', 'items']
      for (const key of order) {
        const run = await load(pair[key], stream(key, seconds / turns))
        const { expect, bodyBytes } = plans[key]
        syncRuns.push({
          round,
          turn,
          endpoint,
          n,
          server: key,
          label: labels[key],
          expect,
          bodyBytes,
          ...run,
        })
        say(
          `round ${round}.${turn} ${endpoint} n=${n} ${labels[key]}: ${run.rps.toFixed(0)} req/s, p99 ${run.p99.toFixed(1)} ms, unexpected status ${run.unexpected}, errors ${run.errors}`,
        )
      }
    }
  }
}

/**
 * The requests of `endpoint` for `server` holding `ids`, the status each should get, and the
 * body bytes of that answer; or `{ missing }`, why the server does not serve it.
 */
export function planSync(endpoint, server, ids) {
  if (endpoint === 'GET /items 304') return notModified(server, ['/items'])
  if (endpoint === 'GET /items/:id 304')
    return notModified(
      server,
      ids.map((id) => `/items/${encodeURIComponent(id)}`),
    )
  return compressed(server, endpoint.split(' ').at(-1))
}

/** Reads the tag of every path (4 at a time), then checks that the first one answers 304. */
async function notModified(server, paths) {
  const cycle = new Array(paths.length)
  let next = 0
  const worker = async () => {
    while (next < paths.length) {
      const index = next++
      const answer = await send(`${server.url}${paths[index]}`)
      const etag = answer.headers.etag
      if (answer.status !== 200)
        throw new Error(`${server.name} GET ${paths[index]}: ${answer.status}`)
      if (etag === undefined) return
      cycle[index] = { method: 'GET', path: paths[index], headers: { 'if-none-match': etag } }
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker))
  if (cycle.includes(undefined)) return { missing: `no ETag on GET ${paths[0]}` }
  const [first] = cycle
  const probe = await send(`${server.url}${first.path}`, { headers: first.headers })
  if (probe.status !== 304 || probe.bytes !== 0)
    return { missing: `answers ${probe.status} with ${probe.bytes} bytes to its own ETag` }
  if (probe.headers.etag !== first.headers['if-none-match'])
    return { missing: `answers 304 without its ETag` }
  return { cycle, expect: 304, bodyBytes: 0 }
}

/** Checks the coding, Vary and tag of the compressed list, and that it holds the plain list. */
async function compressed(server, coding) {
  const url = `${server.url}/items`
  const plain = await send(url)
  const answer = await send(url, { headers: { 'accept-encoding': coding } })
  const { headers } = answer
  if (answer.status !== 200) return { missing: `answers ${answer.status}` }
  if (headers['content-encoding'] !== coding)
    return { missing: `answers Content-Encoding ${headers['content-encoding'] ?? '(none)'}` }
  if (!/accept-encoding/i.test(headers.vary ?? '')) return { missing: 'answers no Vary' }
  if (!headers.etag || headers.etag === plain.headers.etag)
    return { missing: `answers the tag ${headers.etag ?? '(none)'}` }
  if (!decompress[coding](answer.body()).equals(plain.body()))
    return { missing: 'answers bytes that do not decompress to the plain list' }
  return {
    cycle: [{ method: 'GET', path: '/items', headers: { 'accept-encoding': coding } }],
    expect: 200,
    bodyBytes: answer.bytes,
    plainBytes: plain.bytes,
  }
}
