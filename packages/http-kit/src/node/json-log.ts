import { pino } from 'pino'
import type { ErrorRecord } from '../errors.js'
import type { RequestRecord } from '../request-log.js'

/** A log whose every line is one JSON object (LOG_FORMAT=json), pino's. */
export type JsonLog = {
  /** A line of the service's own (its banner, a notice): `{"level":"info","msg":…}`. */
  line: (message: string) => void
  /** One object per request: time, level, request id, method, path, route, status, ms, caller. */
  request: (record: RequestRecord) => void
  /** One object per unexpected error, its text redacted as the text line's is. */
  error: (record: ErrorRecord) => void
}

/**
 * The JSON log of a Node service: pino, writing each object as one line to `write` (the
 * service's batched stdout, so that JSON lines and their order are those of the text log).
 * `time` is an ISO timestamp and `level` a name, as log collectors read them; a request's
 * `durationMs` has two decimals, as the text line's ms. Absent values (no route, no user) are
 * left out. pino, not a formatter of our own: it is the ecosystem's fast JSON logger, its
 * output is what the tools read, and its serialization escapes every path a client can send.
 * @example const log = jsonLog((line) => process.stdout.write(line)); log.line('listening')
 */
export function jsonLog(write: (line: string) => void): JsonLog {
  const logger = pino(
    {
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write },
  )
  return {
    line: (message) => logger.info(message),
    request: ({ requestId, method, path, route, status, durationMs, user, keyDigest }) => {
      const ms = Math.round(durationMs * 100) / 100
      logger.info({ requestId, method, path, route, status, durationMs: ms, user, keyDigest })
    },
    error: ({ requestId, method, path, error }) => {
      logger.error({ requestId, method, path, error })
    },
  }
}
