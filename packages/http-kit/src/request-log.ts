import { safeInLine } from './safe-in-line.js'

export type RequestLogVariables = {
  requestId: string
  /** Whose key a route saw (`keyDigest`'s digest), where it had one to compute: for the log. */
  keyDigest?: string
}

/** One finished request, as its log line says it and as metrics count it. */
export type RequestRecord = {
  requestId: string
  method: string
  /** The path as requested, for the log; never a metric's label. */
  path: string
  /** The template of the route that answered (`/items/:id`); undefined when none matched. */
  route: string | undefined
  status: number
  durationMs: number
  /** The user a token named (its `sub`), where a route took one. */
  user: string | undefined
  /** The digest of the caller's API key, where a route computed it. */
  keyDigest: string | undefined
}

/** What a caller's id may be to be kept: hono's `requestId`'s rule, 128 characters at most. */
const acceptableRequestId = /^[\w=-]{1,128}$/
// The random prefix tells the ids of one process from those of the next. Made on first use:
// the Workers runtime allows no random values while a module loads.
let idPrefix = ''
let sequence = 0
// The ISO timestamp up to its second, formatted once a second: on the Workers runtime, whose
// clock moves with every request, a date's `toISOString` cost about 8 k instructions a request.
let stampedSecond = -1
let secondStamp = ''

/** The caller's `x-request-id` when it is sane, otherwise a new id unique in this process. */
export function requestIdFor(given: string | undefined): string {
  if (given && acceptableRequestId.test(given)) return given
  idPrefix ||= Array.from(crypto.getRandomValues(new Uint8Array(3)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
  return `${idPrefix}-${(++sequence).toString(36)}`
}

/**
 * The log line of one answered request: time, id, method, path, status, ms since `startedAt`
 * (a `performance.now()` reading). Whitespace and control characters in the path (a decoded
 * `%0A`, say) are percent-encoded, so that no path can end the line or forge another.
 */
export function requestLine(
  requestId: string,
  method: string,
  path: string,
  status: number,
  startedAt: number,
): string {
  const ms = (performance.now() - startedAt).toFixed(2)
  return `${isoStamp(Date.now())} ${requestId} ${method} ${safeInLine(path)} ${status} ${ms}ms\n`
}

/** `new Date(now).toISOString()`, the part up to the second made once a second. */
export function isoStamp(now: number): string {
  const second = Math.floor(now / 1000)
  if (second !== stampedSecond) {
    stampedSecond = second
    // `2026-11-27T12:10:17.`
    secondStamp = new Date(second * 1000).toISOString().slice(0, 20)
  }
  const ms = now - second * 1000
  return `${secondStamp}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`
}

/**
 * One `onResponse` that hands each record to every observer given (a JSON log, metrics), in
 * order; undefined when none is, so that the request log does no work for them.
 * @example onResponse: observers(appLog.onResponse, metrics?.onResponse)
 */
export function observers<T>(
  ...each: readonly (((record: T) => void) | undefined)[]
): ((record: T) => void) | undefined {
  const given = each.filter((observer) => observer !== undefined)
  if (given.length <= 1) return given[0]
  return (record) => {
    for (const observer of given) observer(record)
  }
}
