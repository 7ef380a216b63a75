import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/**
 * How `server` takes a client's end of its side of a connection (a half-close), which RFC 9112
 * §9.6 says delimits nothing and does not mean the client wants no answer. node:http by default
 * ends the connection at once and drops every answer not yet written, a committed write's
 * included. With this, an answer not yet begun is still sent, then the connection ends; an
 * answer already streaming (the change feed) ends with the connection, since a follower that
 * ends its side has gone and its place is freed at once. node:http reads `httpAllowHalfOpen` on
 * every client's end; @types/node does not declare it. Returns what tracks each request.
 * @example const track = answerHalfClosedClients(server); track(request, response)
 */
export function answerHalfClosedClients(
  server: Server,
): (request: IncomingMessage, response: ServerResponse) => void {
  Object.assign(server, { httpAllowHalfOpen: true })
  const answering = new WeakMap<Socket, Set<ServerResponse>>()
  // After node:http's own listener, which keeps the connection for the answers still to come.
  server.on('connection', (socket: Socket) => {
    socket.once('end', () => {
      const streaming = [...(answering.get(socket) ?? [])].some(
        (response) => response.headersSent && !response.writableEnded,
      )
      if (streaming) socket.destroy()
    })
  })
  return (request, response) => {
    const { socket } = request
    let responses = answering.get(socket)
    if (!responses) {
      responses = new Set()
      answering.set(socket, responses)
    }
    responses.add(response)
    response.once('close', () => responses.delete(response))
  }
}
