import { ApiApp } from '@movies-and-mail/http-kit/routes'
import { itemEventsRoute } from './events.routes.js'

/** Answers a request for the change feed where its streams are held (another app's `fetch`). */
export type FollowChanges = (request: Request) => Promise<Response>

/**
 * `GET /items/events` for an app that does not hold the change feed (a Worker's isolate: the
 * collection's object holds it, the one place that sees every write): the client's request is
 * answered by `follow`, its stream or its refusal sent on as this app's response, with this app's
 * headers (request id, CORS, nosniff) and log line.
 */
export function forwardedEventsApp(follow: FollowChanges) {
  return new ApiApp().openapi(itemEventsRoute, async (c) => {
    const response = await follow(c.req.raw)
    return c.newResponse(
      response.body,
      response.status as 200,
      Object.fromEntries(response.headers),
    )
  })
}
