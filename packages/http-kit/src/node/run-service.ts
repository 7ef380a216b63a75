import type { Registry } from 'prom-client'
import type { ErrorRecord } from '../errors.js'
import { listenForMetrics, type MetricsAddress } from '../metrics/metrics-listener.js'
import { redactText } from '../redact.js'
import type { RequestRecord } from '../request-log.js'
import { batchedLines } from './batched-lines.js'
import { listen, reachableAt } from './listen.js'
import { openFilesLimit, withinOpenFiles } from './open-files.js'
import { stopOnSignals } from './stop-on-signals.js'

type Fetch = (request: Request) => Response | Promise<Response>

/** Where a listening service can be reached, for its banner. */
export type ReachableAt = ReturnType<typeof reachableAt>

/** What a micro's Node entry hands over once its stores are open. */
export type NodeService = {
  /** The app's `fetch`, or a promise of it: the server listens while the app loads. */
  fetch: Fetch | Promise<Fetch>
  port: number
  host: string
  /** BODY_TIMEOUT_MS: node:http waits twice as long for a request the app does not read. */
  bodyTimeoutMs: number
  /** How long requests in flight may take to finish when the process is told to stop. */
  shutdownTimeoutMs: number
  /** How many connections the service keeps open as streams; the rest stay for requests. */
  streams?: number
  /** What the first line says in parentheses after the address (the store, say). */
  about?: string
  /** The banner's lines after the first (`<name> listening on <url>`). */
  banner: (at: ReachableAt) => string[]
  /** Closes what the service opened, once no request is in flight. */
  close: () => Promise<void>
  /** Ends the responses that never end by themselves (event streams), first. */
  endStreams?: () => void
  /** The service's metrics, served at `GET /metrics` on a listener of their own. */
  metrics?: { registry: Registry; at: MetricsAddress } | undefined
}

/** How the app logs, as LOG_FORMAT says: the options of the kit's `createServiceApp`. */
export type AppLog = {
  log: ((line: string) => void) | null
  onResponse?: (record: RequestRecord) => void
  onError?: (record: ErrorRecord) => void
}

/** What a service's start gets: where its lines go, and a way to name what a failure is about. */
export type ServiceStart = {
  /** Writes a line (without its newline) to stdout, in order with the request lines. */
  log: (line: string) => void
  /** Takes each request's line, newline included: the app's `log`. */
  requestLines: (line: string) => void
  /** Names what a start failure is about while the stores open (a database's address). */
  opening: (context: string) => void
  /**
   * The app's log for LOG_FORMAT: text lines (`requestLines`), or JSON objects, one a line, and
   * then every later line of `log` is one too, so that the whole output parses line by line.
   * pino loads only for JSON, so a text log's start does not pay for it.
   */
  appLog: (format: 'text' | 'json') => Promise<AppLog>
}

/**
 * The start-up both micros' Node entries share: the request lines batched into one write per
 * turn of the event loop, the stores opened by `start`, the app served on node:http within the
 * open-files limit, one banner, a graceful stop on SIGTERM and SIGINT, and every failure to
 * start said in one line on stderr, with no secret of `secrets` in it, and exit code 1.
 * @example runNodeService('mail-service', secretValues(process.env), async ({ log }) => ({ ... }))
 */
export function runNodeService(
  name: string,
  secrets: readonly string[],
  start: (context: ServiceStart) => Promise<NodeService>,
): void {
  // Request lines leave in one write per turn of the event loop, not one system call each.
  const output = batchedLines((text) => process.stdout.write(text))
  process.on('exit', output.flush)
  let log = (line: string) => output.write(`${line}\n`)
  let opening = ''
  const appLog = async (format: 'text' | 'json'): Promise<AppLog> => {
    if (format === 'text') return { log: output.write }
    const { jsonLog } = await import('./json-log.js')
    const json = jsonLog(output.write)
    log = json.line
    return { log: null, onResponse: json.request, onError: json.error }
  }

  const fail = (what: string, reason: unknown, context = ''): never => {
    const message = reason instanceof Error ? reason.message : String(reason)
    output.flush()
    process.stderr.write(`${redactText(`${name} ${what}: ${message}${context}`, secrets)}\n`)
    process.exit(1)
  }

  const main = async () => {
    const service = await start({
      log: (line) => log(line),
      requestLines: output.write,
      appLog,
      opening: (context) => {
        opening = context
      },
    })
    opening = ''
    const wanted = { connections: Number.POSITIVE_INFINITY, streams: service.streams ?? 0 }
    const { metrics } = service
    const [{ server, address, port }, , metricsListener] = await Promise.all([
      listen(service.fetch, {
        port: service.port,
        host: service.host,
        maxConnections: withinOpenFiles(wanted, openFilesLimit()).connections,
        // Behind the app's own 408 for a slow body: what no route reads.
        requestTimeoutMs: service.bodyTimeoutMs * 2,
      }),
      Promise.resolve(service.fetch).catch((reason: unknown) =>
        fail('failed to load its routes', reason),
      ),
      metrics && listenForMetrics(metrics.registry, metrics.at),
    ])
    const at = reachableAt(address, port)
    const where = `${at.url}${at.everywhere ? ' on every interface' : ''}`
    const about = service.about === undefined ? '' : ` (${service.about})`
    const metricsLine = metricsListener
      ? [`metrics: ${reachableAt(metricsListener.address, metricsListener.port).url}/metrics`]
      : []
    // One write, so that whoever reads the output sees the banner whole.
    log([`${name} listening on ${where}${about}`, ...service.banner(at), ...metricsLine].join('\n'))
    stopOnSignals(server, {
      timeoutMs: service.shutdownTimeoutMs,
      close: async () => {
        metricsListener?.server.close()
        await service.close()
      },
      ...(service.endStreams && { endStreams: service.endStreams }),
      log,
      fail,
    })
  }
  main().catch((reason: unknown) => fail('cannot start', reason, opening))
}
