import { bodyTimeout } from './body-read-first.js'
import {
  milliseconds,
  oneOf,
  optional,
  origins,
  port,
  SettingsError,
  text,
  withDefault,
} from './settings.js'

/** The settings both micros read, under the same names and with the same meaning. */
export type ServiceSettings = {
  port: number
  /** `127.0.0.1` unless HOST says otherwise: a first run is not reachable from the network. */
  host: string
  /** Where the embedded store keeps its files. */
  dataDir: string
  /** The origins whose pages may write without the key (`*`: any); none by default. */
  corsOrigins: string[]
  /** How long a stop waits for requests in flight before it closes their connections. */
  shutdownTimeoutMs: number
  /** How long a request's body may take to arrive: 408 after it. */
  bodyTimeoutMs: number
  /**
   * Where Prometheus metrics are served on Node (METRICS_PORT, on METRICS_HOST or the
   * loopback): never on `port`; none when METRICS_PORT is unset.
   */
  metrics: { port: number; host: string } | undefined
  /** LOG_FORMAT: one text line per request (the default), or one JSON object per line. */
  logFormat: 'text' | 'json'
}

/**
 * The parsers of the settings every micro has, for `defineSettings`; each micro adds its own.
 * @example defineSettings({ ...serviceSettings({ port: 4000 }), DB_NAME: text() }, { ... })
 */
export function serviceSettings({ port: defaultPort }: { port: number }) {
  return {
    PORT: withDefault(port(), defaultPort),
    // Loopback by default; deployments open the service with HOST=0.0.0.0.
    HOST: withDefault(text(), '127.0.0.1'),
    DATA_DIR: withDefault(text(), '.data'),
    CORS_ORIGINS: withDefault(origins(), []),
    // Bounded: a timer past 2^31 ms would fire at once.
    SHUTDOWN_TIMEOUT_MS: withDefault(milliseconds({ max: 600_000 }), 10_000),
    // A body sent a byte a second would otherwise hold its connection for minutes (Node's 300 s).
    BODY_TIMEOUT_MS: withDefault(milliseconds({ max: bodyTimeout.maxMs }), bodyTimeout.defaultMs),
    METRICS_PORT: optional(port()),
    // Loopback by default, as HOST: the metrics tell a stranger much about the traffic.
    METRICS_HOST: withDefault(text(), '127.0.0.1'),
    LOG_FORMAT: withDefault(oneOf(['text', 'json']), 'text'),
  }
}

type ParsedServiceSettings = {
  PORT: number
  HOST: string
  DATA_DIR: string
  CORS_ORIGINS: string[]
  SHUTDOWN_TIMEOUT_MS: number
  BODY_TIMEOUT_MS: number
  METRICS_PORT?: number | undefined
  METRICS_HOST: string
  LOG_FORMAT: 'text' | 'json'
}

/** The parsed common settings, named as both micros' settings objects name them. */
export function serviceSettingsOf(env: ParsedServiceSettings): ServiceSettings {
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
    throw new SettingsError([
      "METRICS_PORT: must differ from PORT: metrics are never served on the API's port",
    ])
  }
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: env.DATA_DIR,
    corsOrigins: env.CORS_ORIGINS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    bodyTimeoutMs: env.BODY_TIMEOUT_MS,
    metrics:
      env.METRICS_PORT === undefined
        ? undefined
        : { port: env.METRICS_PORT, host: env.METRICS_HOST },
    logFormat: env.LOG_FORMAT,
  }
}
