import type { Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/**
 * How `server` takes a client's end of its side of a connection (a half-close), which RFC 9112
 * §9.6 says delimits nothing and does not mean the client wants no answer. node:http by default
 * ends the connection at once and drops every answer not yet written, a committed write's
 * included. With this, an answer not yet begun is still sent, then the connection ends; an
 * answer already streaming (the change feed) ends with the connection, since a follower that
 * ends its side has gone and its place is freed at once. node:http reads `httpAllowHalfOpen` on
 * every client's end, and holds the connection's answer under way in `_httpMessage`; @types/node
 * declares neither. Nothing is done per request.
 * @example answerHalfClosedClients(createServer(listener))
 */
export function answerHalfClosedClients(server: Server): void {
  Object.assign(server, { httpAllowHalfOpen: true })
  // After node:http's own listener, which keeps the connection for the answers still to come.
  server.on('connection', (socket: Socket) => {
    socket.once('end', () => {
      const answer = (socket as { _httpMessage?: ServerResponse | null })._httpMessage
      if (answer?.headersSent && !answer.writableEnded) socket.destroy()
    })
  })
}
