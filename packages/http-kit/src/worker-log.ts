import { isoStamp, requestIdFor } from './request-log.js'

/**
 * A JSON response made outside the service app (by a Worker before its app runs, or by an object
 * whose app could not open), as the app's own responses go: the caller's sane `x-request-id` or a
 * new one, nosniff, and its log object on the console.
 * @example return responseOutsideApp(request, 503, { error: 'database unavailable' }, startedAt)
 */
export function responseOutsideApp(
  request: Request,
  status: number,
  body: { error: string },
  /** When the request came (`performance.now()`), for the log line's ms. */
  startedAt: number,
): Response {
  const requestId = requestIdFor(request.headers.get('x-request-id') ?? undefined)
  const path = new URL(request.url).pathname
  const durationMs = Math.round((performance.now() - startedAt) * 100) / 100
  const { method } = request
  // The fields of the app's own log objects (`workerRequestLog`), no route having answered.
  console.log({
    time: isoStamp(Date.now()),
    level: 'info',
    requestId,
    method,
    path,
    status,
    durationMs,
  })
  const headers = { 'x-request-id': requestId, 'x-content-type-options': 'nosniff' }
  return Response.json(body, { status, headers })
}
