import { joinedBytes } from './joined-bytes.js'
import type { RequestRecord } from './request-log.js'
import { responseOutsideApp } from './worker-log.js'

/** Why a body was not handed on: the client went away mid-body, or sent it too slowly. */
export type UnreadBody = 'cut off' | 'late'

/**
 * BODY_TIMEOUT_MS's rule, for the settings and for a Worker that reads it before them: how long a
 * body may take to arrive where it is not set, and at most (a timer past 2^31 ms fires at once).
 */
export const bodyTimeout = { defaultMs: 30_000, maxMs: 600_000 } as const

/** The refusal of a body that did not arrive in time, the same on Node and on a Worker. */
export function lateBodyMessage(ms: number): string {
  return `the request body did not arrive within ${ms / 1000} s`
}

/**
 * BODY_TIMEOUT_MS as a Worker reads it from its bindings, before the app has parsed its settings:
 * a whole number of milliseconds from 1 to 600000, by the settings' rule, or the default. A
 * value outside the rule gets the default here; the app then answers 503 and logs the setting.
 */
export function bodyDeadlineMs(setting: unknown): number {
  const ms = typeof setting === 'string' && setting.trim() !== '' ? Number(setting) : Number.NaN
  return Number.isInteger(ms) && ms >= 1 && ms <= bodyTimeout.maxMs ? ms : bodyTimeout.defaultMs
}

/**
 * A Worker's response to a body it did not hand on: 408 for one that did not arrive within
 * `deadlineMs` (as the app answers on Node; the runtime then drops the connection, whose body
 * is unread), 400 for one that broke off, which no one reads. With a request id and nosniff, as
 * every response, and its log line.
 */
export function unreadBodyResponse(
  request: Request,
  why: UnreadBody,
  deadlineMs: number,
  /** When the Worker began reading the body (`performance.now()`), for the log line's ms. */
  startedAt = performance.now(),
  /** Told of the response as the app's `onResponse` is (an Analytics Engine data point). */
  onResponse?: (record: RequestRecord) => void,
): Response {
  return why === 'late'
    ? responseOutsideApp(
        request,
        408,
        { error: lateBodyMessage(deadlineMs) },
        startedAt,
        onResponse,
      )
    : responseOutsideApp(request, 400, { error: 'request body was cut off' }, startedAt, onResponse)
}

/**
 * For a Worker: the request with its body read to its end first, so that whatever answers it
 * (the app, or a Durable Object it is handed to) gets a body the platform no longer streams. An
 * answer given before a streamed body was read leaves it on the connection: workerd then drops
 * the connection, so the client's next request on it fails; a Durable Object that answers so
 * leaves the runtime reading a stream whose request has been answered ("Can't read from request
 * stream after response has been sent" under `wrangler dev`, a restarted Worker, the next
 * request answered 503 or never). Of the body, `maxBytes + 1` bytes at most are kept: the app's
 * own limit then answers 413 in the order it checks (a wrong key first), as on Node. The
 * platform bounds how much there is to read (100 MB and more). A body not read whole within
 * `deadlineMs` (BODY_TIMEOUT_MS) is `'late'`: a client that sends a byte a second must not hold
 * the request for minutes.
 * @returns the request to send on, or why its body was not read (`unreadBodyResponse` answers it)
 */
export async function withBodyReadFirst(
  request: Request,
  maxBytes: number,
  deadlineMs = Number.POSITIVE_INFINITY,
): Promise<Request | UnreadBody> {
  if (request.body === null) return request
  if (deadlineMs === Number.POSITIVE_INFINITY) return readWhole(request, maxBytes)
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deadlineMs)
  })
  try {
    // The read left behind ends when the runtime drops the connection, as `'cut off'`.
    return await Promise.race([readWhole(request, maxBytes), late])
  } finally {
    clearTimeout(timer)
  }
}

/** The request with its body read whole (at most `maxBytes + 1` of it kept), or `'cut off'`. */
async function readWhole(request: Request, maxBytes: number): Promise<Request | 'cut off'> {
  if (request.body === null) return request
  // A GET or HEAD cannot carry a body on; what it sent is read, and no route reads it.
  const bodiless = request.method === 'GET' || request.method === 'HEAD'
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (!bodiless && declared <= maxBytes) {
    // Within the limit by its length, which the runtime holds the body to: read in one call.
    try {
      return passedOn(request, await request.arrayBuffer())
    } catch {
      return 'cut off'
    }
  }
  // The chunks as they come, then one copy of their bytes: not a buffer of the limit's size for
  // every request.
  const kept: Uint8Array[] = []
  let length = 0
  const reader = request.body.getReader()
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const room = maxBytes + 1 - length
      if (room === 0) continue
      const chunk = read.value.byteLength > room ? read.value.subarray(0, room) : read.value
      kept.push(chunk)
      length += chunk.byteLength
    }
  } catch {
    return 'cut off'
  }
  return passedOn(request, bodiless ? null : joinedBytes(kept, length))
}

/** The request with `body`, read, in place of its stream. */
function passedOn(request: Request, body: BodyInit | null): Request {
  const headers = new Headers(request.headers)
  // The runtime gives the body in memory its own length.
  headers.delete('content-length')
  headers.delete('transfer-encoding')
  return new Request(request.url, { method: request.method, headers, body })
}
