// Load runs with autocannon (the library, in this process): 50 connections, a warm-up first.
// Every connection gets its own list of requests, built once before the run, so the load
// generator spends its time on the wire, not on building requests, and every request is valid.
// The sync reads use a leaner generator instead (socket-load.mjs), with the same bookkeeping.
import autocannon from 'autocannon'
import { cpuMilliseconds, cpuSeconds, machineBusySeconds } from './servers.mjs'
import { requestBytes, socketLoad } from './socket-load.mjs'

export const connections = 50

/**
 * Stream kinds:
 * - `{ cycle: requests }`: for a time, connection i cycles through requests i, i+50, i+100, ...
 * - `{ once: requests }`: each request exactly once, over the connections (a count, not a time).
 * A request is { method, path, body?, headers? }. Answers of another status than `expect` (any
 * 2xx when not given) are counted in `unexpected` (and in `non2xx` when not 2xx).
 * `generator: 'sockets'` loads a cycle of bodiless requests with socket-load.mjs.
 */
export async function load(server, { cycle, once, seconds, expect, generator = 'autocannon' }) {
  await settle(server)
  const requests = (cycle ?? once).map(build)
  const ownOf = (i) => {
    const own = requests.filter((_, index) => index % connections === i % requests.length)
    return own.length > 0 ? own : [requests[i % requests.length]]
  }
  let nextClient = 0
  let nextOnce = 0
  const setupClient = (client) => {
    const i = nextClient++
    if (cycle) {
      client.setRequests(ownOf(i))
    } else {
      // autocannon gives connection i exactly `responseMax` requests: hand it that many ids.
      client.setRequests(requests.slice(nextOnce, nextOnce + client.responseMax))
      nextOnce += client.responseMax
    }
  }
  const latencies = []
  let last = 0
  let non2xx = 0
  let unexpected = 0
  let bytes = 0
  const cpuBefore = cpuSeconds(server.pid)
  const cpuMsBefore = cpuMilliseconds(server.pid)
  const busyBefore = machineBusySeconds()
  const ownBefore = process.cpuUsage()
  const onAnswer = (status, answerBytes, ms) => {
    last = performance.now()
    latencies.push(ms)
    bytes += answerBytes
    const ok = status >= 200 && status <= 299
    if (!ok) non2xx++
    if (expect === undefined ? !ok : status !== expect) unexpected++
  }
  const start = performance.now()
  let result
  if (generator === 'sockets') {
    const host = `127.0.0.1:${server.port}`
    const own = Array.from({ length: connections }, (_, i) =>
      ownOf(i).map((request) => requestBytes(host, request)),
    )
    result = await socketLoad({ port: server.port, connections, requests: own, seconds, onAnswer })
  } else {
    const instance = autocannon({
      url: server.url,
      connections,
      ...(once ? { amount: once.length } : { duration: seconds }),
      timeout: 30,
      // autocannon ends a run at its first sample after the end: every 50 ms, not its default
      // second, so a window shorter than a second lasts no longer and a counted run does not idle.
      sampleInt: 50,
      setupClient,
    })
    instance.on('response', (_client, status, answerBytes, ms) => onAnswer(status, answerBytes, ms))
    result = await instance
  }
  const end = performance.now()
  const cpu = cpuSeconds(server.pid) - cpuBefore
  const cpuMs = cpuMilliseconds(server.pid) - cpuMsBefore
  const own = process.cpuUsage(ownBefore)
  const loadSeconds = (own.user + own.system) / 1e6
  // What the rest of the machine used meanwhile: other processes competing for the two cores.
  const others = Math.max(0, machineBusySeconds() - busyBefore - cpu - loadSeconds)
  const wall = (end - start) / 1000
  // A timed run lasts until autocannon stops it; a counted one until its last answer.
  const duration = once ? (last - start) / 1000 : wall
  latencies.sort((a, b) => a - b)
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]
  return {
    requests: latencies.length,
    duration,
    rps: latencies.length / duration,
    p50: at(0.5),
    p99: at(0.99),
    non2xx,
    unexpected,
    errors: result.errors,
    bytesPerAnswer: latencies.length ? bytes / latencies.length : 0,
    cpu: cpu / wall,
    // The server's CPU per answer in µs, which other processes on the cores move far less
    // than the rate: they take the core from it, not add to its work.
    cpuPerAnswer: latencies.length ? (cpuMs * 1000) / latencies.length : 0,
    loadCpu: loadSeconds / wall,
    othersCpu: others / wall,
  }
}

/**
 * Waits until the server is idle (under 5% of a core over 50 ms): when a run stops, the
 * server may still be working through requests that the load generator has abandoned. Read
 * from the scheduler's count in nanoseconds, which tells 2.5 ms apart where the clock ticks
 * (10 ms) needed windows of 200 ms: a quick look settles about 130 times.
 */
export async function settle(server, limitMs = 60_000) {
  const until = performance.now() + limitMs
  while (performance.now() < until) {
    const before = cpuMilliseconds(server.pid)
    await new Promise((resolve) => setTimeout(resolve, 50))
    if (cpuMilliseconds(server.pid) - before <= 2.5) return
  }
}

function build({ method, path, body, headers = {} }) {
  return body === undefined
    ? { method, path, headers }
    : {
        method,
        path,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }
}
