import type { ChangeFeed, FeedEvent } from '../store/change-feed.js'

export type EventStreamOptions = {
  feed: ChangeFeed
  /** The client's `Last-Event-ID`: replay what came after it. */
  lastEventId: string | undefined
  /** How often a comment line goes out on a quiet stream, so that proxies keep it open. */
  heartbeatMs: number
  /** How long the stream may go without an event before it closes, telling the client to reconnect. */
  idleCloseMs: number
  /** Bytes a client may leave unread before it is dropped; it reconnects and replays. */
  maxUnreadBytes: number
  /** Called once when the stream ends, whichever side ends it. */
  onEnd?: () => void
}

/** How long a browser waits before reconnecting, sent once at the start. */
const reconnectMs = 2000
const encoder = new TextEncoder()
const utf8 = new TextDecoder()
const heartbeat = encoder.encode(': heartbeat\n\n')
/** The last words of an idle stream: reconnect (EventSource does by itself) after `retry`. */
const idleClose = encoder.encode(
  `: idle, closing; reconnect with Last-Event-ID\nretry: ${reconnectMs}\n\n`,
)

/** Each event is formatted once, whatever the number of streams it goes to. */
const formatted = new WeakMap<FeedEvent, Uint8Array>()

/** One event in the `text/event-stream` format. */
function format(event: FeedEvent): Uint8Array {
  let bytes = formatted.get(event)
  if (bytes === undefined) {
    // The data is one line of JSON; were a stored item to hold a raw line break, each line
    // goes in a `data:` field of its own and the client joins them back with "\n".
    const data = utf8
      .decode(event.data)
      .split(/\r\n|\r|\n/)
      .join('\ndata: ')
    bytes = encoder.encode(`event: ${event.kind}\nid: ${event.id}\ndata: ${data}\n\n`)
    formatted.set(event, bytes)
  }
  return bytes
}

/** What starts a stream: the events the client missed, or `reload`, or only where it stands. */
function opening(feed: ChangeFeed, lastEventId: string | undefined): Uint8Array[] {
  const start = encoder.encode(`retry: ${reconnectMs}\n`)
  const missed = lastEventId === undefined ? [] : feed.since(lastEventId)
  if (missed === null) {
    const reason = 'the events since Last-Event-ID are no longer kept; read the list again'
    const reload = `event: reload\nid: ${feed.lastId}\ndata: ${JSON.stringify({ reason })}\n\n`
    return [start, encoder.encode(reload)]
  }
  // An id with no data moves the client's Last-Event-ID without an event: a reconnect before
  // the next change then replays from here.
  if (missed.length === 0) return [start, encoder.encode(`id: ${feed.lastId}\n\n`)]
  return [start, encoder.encode('\n'), ...missed.map(format)]
}

/**
 * The feed as a Server-Sent Events body: what `lastEventId` missed (or `reload` when that is
 * no longer kept), then each event as it is published, with heartbeat comments in between. It
 * ends when the client goes away, when the feed ends (the service stops), when no event came for
 * `idleCloseMs` (with a reconnect hint), or when the client leaves more than `maxUnreadBytes`
 * unread: a stream nobody reads must not hold memory.
 */
export function eventStream({
  feed,
  lastEventId,
  heartbeatMs,
  idleCloseMs,
  maxUnreadBytes,
  onEnd,
}: EventStreamOptions): ReadableStream<Uint8Array> {
  let stop = () => {}
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    stop()
    onEnd?.()
  }
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // The replay is bounded by the feed's buffer and is allowed on top: a reconnect after
        // a long absence must not be dropped before it could read anything.
        let allowance = maxUnreadBytes
        const send = (bytes: Uint8Array) => {
          if (ended) return
          controller.enqueue(bytes)
          if ((controller.desiredSize ?? 0) < -allowance) {
            end()
            controller.error(new Error(`client left more than ${maxUnreadBytes} bytes unread`))
          }
        }
        // A stream that carried no event for `idleCloseMs` closes: a client that holds streams
        // it does not need gives them back, and one that does reconnects, missing nothing.
        let idle: ReturnType<typeof setTimeout> | undefined
        const closeIdle = () => {
          if (ended) return
          send(idleClose)
          end()
          controller.close()
        }
        const stillBusy = () => {
          clearTimeout(idle)
          idle = setTimeout(closeIdle, idleCloseMs)
        }
        // Subscribed in the same turn as the replay is taken: no event falls in between.
        const unsubscribe = feed.subscribe({
          event: (event) => {
            stillBusy()
            send(format(event))
          },
          end: () => {
            if (ended) return
            end()
            controller.close()
          },
        })
        if (ended) return // the feed had already ended
        const timer = setInterval(() => send(heartbeat), heartbeatMs)
        stillBusy()
        stop = () => {
          clearInterval(timer)
          clearTimeout(idle)
          unsubscribe()
        }
        const replay = opening(feed, lastEventId)
        for (const bytes of replay) allowance += bytes.byteLength
        for (const bytes of replay) send(bytes)
      },
      cancel: end,
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
  )
}
