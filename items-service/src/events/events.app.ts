import { ApiApp } from '@movies-and-mail/http-kit/routes'
import type { ItemStore } from '../store/item-store.js'
import { clientAddress } from './client-address.js'
import { eventStream } from './event-stream.js'
import { itemEventsRoute } from './events.routes.js'

export type EventsOptions = {
  store: ItemStore
  /** How often a quiet stream gets a comment line. */
  heartbeatMs?: number
  /** How many streams may be open at once; more answer 503. */
  maxStreams?: number
  /** How many of them one client (one address) may hold; more answer 429. */
  maxStreamsPerClient?: number
  /** How long a stream may go without an event before it is closed, with a reconnect hint. */
  idleCloseMs?: number
  /** The header a proxy in front sets to the client's address; none is trusted by default. */
  clientAddressHeader?: string | undefined
  /** Bytes a client may leave unread before its stream is dropped. */
  maxUnreadBytes?: number
}

const streamHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  // Proxies that buffer answers (nginx) would hold the events back.
  'x-accel-buffering': 'no',
}

/** A refused stream's connection closes with the response: a client must not hold it idle. */
const closing = { connection: 'close' }

/**
 * `GET /items/events`: the store's change feed as Server-Sent Events (docs/items-service.md › Live changes).
 * The streams open at once are bounded, in all and per client, so that no client can take the
 * feed from the others; a stream with no event for `idleCloseMs` is closed (the client
 * reconnects with its `Last-Event-ID` and misses nothing); what each may leave unread is bounded.
 */
export function eventsApp({
  store,
  heartbeatMs = 15_000,
  maxStreams = 10_000,
  maxStreamsPerClient = 20,
  idleCloseMs = 600_000,
  clientAddressHeader,
  maxUnreadBytes = 1024 * 1024,
}: EventsOptions) {
  let open = 0
  /** Streams open per client address; an address leaves the map with its last stream. */
  const openBy = new Map<string, number>()
  return new ApiApp().openapi(itemEventsRoute, async (c) => {
    const feed = store.changes
    if (!feed) {
      const error =
        'live changes need MongoDB as a replica set (Atlas is one); this server is standalone'
      return c.json({ error }, 501)
    }
    if (open >= maxStreams) {
      const error = 'too many event streams are open; try again later'
      return c.json({ error }, 503, { 'retry-after': '5', ...closing })
    }
    const client = clientAddress(c, clientAddressHeader)
    const held = openBy.get(client) ?? 0
    if (held >= maxStreamsPerClient) {
      const error = `this client holds ${held} event streams already, the most one may; close one first`
      return c.json({ error }, 429, { 'retry-after': '5', ...closing })
    }
    // A HEAD is answered without opening a stream that nobody would read or cancel.
    if (c.req.raw.method === 'HEAD') return c.newResponse(null, 200, streamHeaders)
    open += 1
    openBy.set(client, held + 1)
    const body = eventStream({
      feed,
      lastEventId: c.req.header('last-event-id'),
      heartbeatMs,
      idleCloseMs,
      maxUnreadBytes,
      onEnd: () => {
        open -= 1
        const left = (openBy.get(client) ?? 1) - 1
        if (left > 0) openBy.set(client, left)
        else openBy.delete(client)
      },
    })
    return c.newResponse(body, 200, streamHeaders)
  })
}
