import { type RequestRecord, requestIdFor } from './request-log.js'
import { workerRequestLog } from './worker-request-log.js'

/**
 * A JSON response made outside the service app (by a Worker before its app runs, or by an object
 * whose app could not open), as the app's own responses go: the caller's sane `x-request-id` or a
 * new one, nosniff, its log object on the console, and `onResponse` (say, an Analytics Engine
 * data point) told of it as the app's own are.
 * @example return responseOutsideApp(request, 503, { error: 'database unavailable' }, startedAt)
 */
export function responseOutsideApp(
  request: Request,
  status: number,
  body: { error: string },
  /** When the request came (`performance.now()`), for the log line's ms. */
  startedAt: number,
  onResponse?: ((record: RequestRecord) => void) | undefined,
): Response {
  const requestId = requestIdFor(request.headers.get('x-request-id') ?? undefined)
  // The fields of the app's own log objects, no route having answered.
  const record: RequestRecord = {
    requestId,
    method: request.method,
    path: new URL(request.url).pathname,
    route: undefined,
    status,
    durationMs: performance.now() - startedAt,
    user: undefined,
    keyDigest: undefined,
  }
  workerRequestLog(record)
  onResponse?.(record)
  const headers = { 'x-request-id': requestId, 'x-content-type-options': 'nosniff' }
  return Response.json(body, { status, headers })
}
