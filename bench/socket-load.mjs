// A lean load generator for the sync reads. autocannon appends every body chunk to a string,
// which for compressed bytes (invalid UTF-8) costs it about 0.3 ms per 28 KB answer, four times
// what a server spends on it: on a machine whose cores the load generator shares, it, not the
// server, would set the pace. Here each connection keeps one socket alive, writes prepared request
// bytes, frames each answer by its status and Content-Length, and skips the body unread.

import { connect } from 'node:net'

const headEnd = Buffer.from('\r\n\r\n')
const noBody = new Set([204, 304])

/** The bytes of a GET as autocannon sends it: Host, `Connection: keep-alive`, then `headers`. */
export function requestBytes(host, { method, path, headers = {} }) {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: keep-alive']
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1')
}

/**
 * For `seconds`, `connections` sockets to `port`, socket i cycling through `requests[i]`, one
 * request in flight each; `onAnswer(status, bytes, ms)` for each answer. Resolves with the count
 * of socket errors and answers it could not frame (chunked ones, for one).
 */
export function socketLoad({ port, connections, requests, seconds, onAnswer }) {
  let errors = 0
  let stopping = false
  const timer = setTimeout(() => {
    stopping = true
  }, seconds * 1000)
  const one = (own) =>
    new Promise((resolve) => {
      const socket = connect({ port, host: '127.0.0.1', noDelay: true })
      let next = 0
      let sentAt = 0
      let head = null
      let status = 0
      let bytes = 0
      let left = -1
      const send = () => {
        if (stopping) return socket.end()
        sentAt = performance.now()
        socket.write(own[next])
        next = (next + 1) % own.length
      }
      const fail = () => {
        errors++
        socket.destroy()
      }
      socket.on('connect', send)
      socket.on('data', (chunk) => {
        bytes += chunk.length
        if (left < 0) {
          head = head === null ? chunk : Buffer.concat([head, chunk])
          const end = head.indexOf(headEnd)
          if (end < 0) return
          const text = head.toString('latin1', 0, end)
          status = Number(text.slice(9, 12))
          const length = /\r\ncontent-length: *(\d+)/i.exec(text)?.[1]
          if (length === undefined && !noBody.has(status)) return fail()
          left = (noBody.has(status) ? 0 : Number(length)) - (head.length - end - 4)
          head = null
        } else left -= chunk.length
        if (left > 0) return
        if (left < 0) return fail()
        onAnswer(status, bytes, performance.now() - sentAt)
        bytes = 0
        left = -1
        send()
      })
      socket.on('error', fail)
      socket.on('close', resolve)
    })
  return Promise.all(requests.slice(0, connections).map(one)).then(() => {
    clearTimeout(timer)
    return { errors }
  })
}
