import { connect } from 'node:net'

export type LargeUploadResult = {
  status: number
  /** The response's headers, names in lower case. */
  headers: Record<string, string>
  /** Whether the server ended the connection before the client gave up. */
  closedByServer: boolean
  /** Milliseconds from the response's arrival to the connection's end. */
  closedAfterMs: number
  /** Bytes of the body the socket had taken when the connection ended. */
  bodyBytesSent: number
}

/**
 * Sends `head` (a request line and headers that declare a large body, without the blank line)
 * to `url` on a raw socket, a few bytes of the body, then 16 KiB every 20 ms, as a slow client
 * would, until the server ends the connection or `giveUpMs` passes. A server that reads the
 * body to keep the connection keeps it open meanwhile (the node adapter for up to 500 ms).
 * Slowly, so that the response is read before a write meets a socket the server closed at once:
 * a fast writer gets EPIPE first, and the response waiting in its socket is lost with it.
 */
export function largeUpload(
  url: string,
  head: string,
  giveUpMs = 3_000,
): Promise<LargeUploadResult> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    const chunk = Buffer.alloc(16 * 1024, 'x')
    let received = ''
    let answeredAt: number | undefined
    let bodyBytesSent = 0
    let done = false
    let pump: NodeJS.Timeout | undefined
    const giveUp = setTimeout(() => finish(false), giveUpMs)

    function finish(closedByServer: boolean): void {
      if (done) return
      done = true
      clearTimeout(giveUp)
      clearInterval(pump)
      socket.destroy()
      if (answeredAt === undefined) {
        reject(new Error(`no answer: ${received}`))
        return
      }
      const [statusLine = '', ...lines] = received.split('\r\n\r\n')[0]?.split('\r\n') ?? []
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':')
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
        }),
      )
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        closedByServer,
        closedAfterMs: performance.now() - answeredAt,
        bodyBytesSent,
      })
    }

    socket.on('connect', () => {
      socket.write(`${head}\r\n\r\n{"pad":"`)
      pump = setInterval(() => {
        if (!socket.writable) return
        socket.write(chunk, () => {})
        bodyBytesSent += chunk.length
      }, 20)
    })
    socket.setEncoding('latin1').on('data', (text: string) => {
      received += text
      if (answeredAt === undefined && received.includes('\r\n\r\n')) answeredAt = performance.now()
    })
    // A write after the server has closed fails with EPIPE or ECONNRESET: the server's doing.
    socket.on('error', () => finish(true))
    socket.on('end', () => finish(true))
    socket.on('close', () => finish(true))
  })
}
