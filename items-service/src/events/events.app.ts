import { OpenAPIHono } from '@hono/zod-openapi'
import { takeResponseHeaders } from '@movies-and-mail/http-kit'
import type { ItemStore } from '../store/item-store.js'
import { eventStream } from './event-stream.js'
import { itemEventsRoute } from './events.routes.js'

export type EventsOptions = {
  store: ItemStore
  /** How often a quiet stream gets a comment line. */
  heartbeatMs?: number
  /** How many streams may be open at once; more answer 503. */
  maxStreams?: number
  /** Bytes a client may leave unread before its stream is dropped. */
  maxUnreadBytes?: number
}

const streamHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  // Proxies that buffer answers (nginx) would hold the events back.
  'x-accel-buffering': 'no',
}

/**
 * `GET /items/events`: the store's change feed as Server-Sent Events (docs/items-service.md › Live changes).
 * The number of open streams is bounded, and so is what each may leave unread.
 */
export function eventsApp({
  store,
  heartbeatMs = 15_000,
  maxStreams = 10_000,
  maxUnreadBytes = 1024 * 1024,
}: EventsOptions) {
  let open = 0
  return new OpenAPIHono().openapi(itemEventsRoute, async (c) => {
    const feed = store.changes
    if (!feed) {
      const error =
        'live changes need MongoDB as a replica set (Atlas is one); this server is standalone'
      return c.json({ error }, 501)
    }
    if (open >= maxStreams) {
      c.header('retry-after', '5')
      return c.json({ error: 'too many event streams are open; try again later' }, 503)
    }
    const headers = takeResponseHeaders(c, streamHeaders)
    // A HEAD is answered without opening a stream that nobody would read or cancel.
    if (c.req.raw.method === 'HEAD') return new Response(null, { headers }) as never
    open += 1
    const body = eventStream({
      feed,
      lastEventId: c.req.header('last-event-id'),
      heartbeatMs,
      maxUnreadBytes,
      onEnd: () => {
        open -= 1
      },
    })
    return new Response(body, { headers }) as never
  })
}
