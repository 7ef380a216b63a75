import type { IncomingMessage, Server } from 'node:http'
import type { Socket } from 'node:net'

/**
 * How much of a request's body still coming a closing connection reads and drops: at most
 * `maxBytes`, for at most `totalMs` in all and `idleMs` without a byte. nginx's lingering close
 * reads for 30 s and 5 s idle; the bodies these services take are of kilobytes, so the bounds
 * are tighter, and bytes are bounded too: a refused upload of 100 MB must not be read whole.
 */
export type Lingering = { maxBytes: number; totalMs: number; idleMs: number }

export const defaultLingering: Lingering = {
  maxBytes: 16 * 1024 * 1024,
  totalMs: 5_000,
  idleMs: 2_000,
}

/** The request a connection carries last: the one whose body may still be coming. */
const lastRequest = Symbol('last request')

type TrackedSocket = Socket & { [lastRequest]?: IncomingMessage }

/** Each server's connections that linger now, for a stop to end at once. */
const lingeringOf = new WeakMap<Server, Set<Socket>>()

/**
 * Makes `server` close a connection in stages when it answers before the request's body is all
 * in (a 413, a 401 to a body, an answer with `Connection: close`): the answer and a half-close
 * first, then what the client still sends is read and dropped until the body is all in, the
 * client closes its side, or a bound is reached. node:http closes such a socket as soon as the
 * answer is written, and a socket closed with bytes unread sends the client a reset: a client
 * still writing its body (Node's `fetch` and `http.request` among them) then gets `EPIPE` or a
 * reset, not the answer. This is the close of RFC 9112 §9.6, as nginx's lingering close does it.
 *
 * Returns what the request listener calls with each request, so that a lingering connection
 * can keep its request's body flowing.
 * @example const track = closeLingering(server); server.on('request', (request) => track(request))
 */
export function closeLingering(
  server: Server,
  { maxBytes, totalMs, idleMs }: Lingering = defaultLingering,
): (request: IncomingMessage) => void {
  const lingering = new Set<Socket>()
  lingeringOf.set(server, lingering)
  server.on('connection', (socket: TrackedSocket) => {
    const closeAtOnce = socket.destroySoon.bind(socket)
    // node:http calls this once the answer of a connection's last request is written.
    socket.destroySoon = () => {
      const request = socket[lastRequest]
      // Called again while lingering (the node adapter's drain of an unread body gives up after
      // 500 ms): the bounds set the first time stand.
      if (lingering.has(socket)) return
      if (!request || request.complete || socket.readableEnded) return closeAtOnce()
      lingering.add(socket)
      const close = () => socket.destroy()
      const total = setTimeout(close, totalMs)
      socket.setTimeout(idleMs, close)
      // node:http's parser reads the socket itself, with no event a read: its count is looked at
      // often enough that loopback's speed passes the bound by a megabyte or two at most.
      const readBefore = socket.bytesRead
      const count = setInterval(() => {
        if (socket.bytesRead - readBefore > maxBytes) close()
      }, 10)
      // The body all in, or the client's side closed: nothing more will come.
      request.once('end', close)
      socket.once('end', close)
      socket.once('close', () => {
        clearTimeout(total)
        clearInterval(count)
        lingering.delete(socket)
      })
      if (socket.writable) socket.end()
      // The app has answered: what it read the body with (a web stream, its reading stopped at a
      // limit) would hold the body paused, and the socket with it, until the bounds.
      request.removeAllListeners('data')
      request.resume()
    }
  })
  return (request) => {
    ;(request.socket as TrackedSocket)[lastRequest] = request
  }
}

/** Closes `server`'s lingering connections now: they have their answers; a stop ends them. */
export function endLingering(server: Server): void {
  for (const socket of lingeringOf.get(server) ?? []) socket.destroy()
}
