import type { ErrorRecord } from './errors.js'
import { isoStamp, type RequestRecord } from './request-log.js'

/**
 * A Worker's request log: one object per request on the console, which Workers Logs keeps with
 * each field indexed (`requestId`, `route`, `status`, ...), where a text line would be one
 * string to search. The fields are those of `LOG_FORMAT=json` on Node; absent ones are left out.
 * @example createApp({ log: null, onResponse: workerRequestLog })
 */
export function workerRequestLog({
  requestId,
  method,
  path,
  route,
  status,
  durationMs,
  user,
  keyDigest,
}: RequestRecord): void {
  console.log({
    time: isoStamp(Date.now()),
    level: 'info',
    requestId,
    method,
    path,
    ...(route !== undefined && { route }),
    status,
    durationMs: Math.round(durationMs * 100) / 100,
    ...(user !== undefined && { user }),
    ...(keyDigest !== undefined && { keyDigest }),
  })
}

/** A Worker's unexpected error as one object on the console's error stream, redacted. */
export function workerErrorLog({ requestId, method, path, error }: ErrorRecord): void {
  console.error({ time: isoStamp(Date.now()), level: 'error', requestId, method, path, error })
}
