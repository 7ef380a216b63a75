import { connect, type Socket } from 'node:net'

/** An answer as it came over the wire: header names in lower case, the body de-chunked. */
export type RawResponse = { status: number; headers: Record<string, string>; body: Buffer }

/**
 * One HTTP/1.1 connection on a raw socket, for what `fetch` cannot send: a body cut off, a
 * length that lies, a request sent in pieces, a client that goes away, several requests on one
 * connection. `send` writes bytes as they are; `answer` reads the next answer.
 * @example const connection = await RawConnection.open(url); connection.send(head + body); await connection.answer()
 */
export class RawConnection {
  readonly #socket: Socket
  #received = Buffer.alloc(0)
  #closed = false
  #wake: () => void = () => {}

  private constructor(socket: Socket) {
    this.#socket = socket
    socket.on('data', (chunk: Buffer) => {
      this.#received = Buffer.concat([this.#received, chunk])
      this.#wake()
    })
    // A write after the server closed fails (EPIPE, ECONNRESET): the server's doing.
    socket.on('error', () => {})
    socket.on('close', () => {
      this.#closed = true
      this.#wake()
    })
  }

  /**
   * Connects to the host and port of `url`. `halfOpen`: the connection stays open for writing
   * once the server has ended its side, as a client still sending its body keeps it.
   */
  static open(url: string, { halfOpen = false } = {}): Promise<RawConnection> {
    const { hostname, port } = new URL(url)
    return new Promise((resolve, reject) => {
      const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: halfOpen })
      socket.once('connect', () => resolve(new RawConnection(socket)))
      socket.once('error', reject)
    })
  }

  /** Whether the server (or `destroy`) has closed the connection. */
  get closed(): boolean {
    return this.#closed
  }

  /**
   * Writes `bytes` as they are; resolves once they are handed to the socket, with the write's
   * error code if it failed (`EPIPE`, `ECONNRESET`: the server closed first), or 'closed' when
   * the connection had closed before.
   */
  send(bytes: string | Uint8Array): Promise<string | undefined> {
    if (this.#closed || this.#socket.destroyed) return Promise.resolve('closed')
    return new Promise((resolve) =>
      this.#socket.write(bytes, (error?: NodeJS.ErrnoException | null) =>
        resolve(error ? (error.code ?? error.message) : undefined),
      ),
    )
  }

  /**
   * The next answer, once whole; null when the connection closes before one came, or none came
   * within `waitMs`. `head`: the request was a HEAD, so the answer has no body whatever it says.
   */
  async answer({ waitMs = 5_000, head = false } = {}): Promise<RawResponse | null> {
    const deadline = performance.now() + waitMs
    for (;;) {
      const parsed = parseResponse(this.#received, head, this.#closed)
      if (parsed) {
        this.#received = this.#received.subarray(parsed.length)
        return parsed.answer
      }
      if (this.#closed || performance.now() >= deadline) return null
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - performance.now())
        this.#wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  }

  /**
   * Ends this side of the connection once `bytes` (if any) are written: a half-close, as a client
   * that has sent all it will send and still reads the answer.
   */
  end(bytes?: string | Uint8Array): void {
    if (bytes === undefined) this.#socket.end()
    else this.#socket.end(bytes)
  }

  /** Closes the connection from this side, as a client that goes away. */
  destroy(): void {
    this.#socket.destroy()
  }
}

/** A request's bytes: the request line, `headers` as given (none added), and `body`. */
export function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Uint8Array = '',
): Buffer {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ]
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)])
}

/**
 * A POST of `body` (JSON, its length declared) to `path` at `url` from a client too slow for any
 * body deadline: the head at once, then one byte every `everyMs`. The answer that came (null:
 * none within `waitMs`), and the ms from the head to it.
 * @example const { answer, ms } = await trickledPost(url, '/items', JSON.stringify(movie))
 */
export async function trickledPost(
  url: string,
  path: string,
  body: string,
  { headers = {}, everyMs = 200, waitMs = 5_000 }: TrickleOptions = {},
): Promise<{ answer: RawResponse | null; ms: number }> {
  const connection = await RawConnection.open(url)
  const head = {
    host: new URL(url).host,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  }
  await connection.send(rawRequest('POST', path, head))
  const started = performance.now()
  let sent = 0
  const trickle = setInterval(() => {
    if (sent < body.length) void connection.send(body.slice(sent, ++sent))
  }, everyMs)
  try {
    const answer = await connection.answer({ waitMs })
    return { answer, ms: performance.now() - started }
  } finally {
    clearInterval(trickle)
    connection.destroy()
  }
}

type TrickleOptions = {
  /** Headers beside the host, type and length (a key). */
  headers?: Record<string, string>
  everyMs?: number
  waitMs?: number
}

/** A whole answer at the front of `bytes`, and how many bytes it took; null until it is whole. */
function parseResponse(
  bytes: Buffer,
  head: boolean,
  closed: boolean,
): { answer: RawResponse; length: number } | null {
  const end = bytes.indexOf('\r\n\r\n')
  if (end < 0) return null
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(statusLine.split(' ')[1])
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const start = end + 4
  const bodiless = head || status === 204 || status === 304 || (status >= 100 && status < 200)
  if (bodiless) return { answer: { status, headers, body: Buffer.alloc(0) }, length: start }
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    return dechunk(bytes, start, status, headers)
  }
  if (headers['content-length'] !== undefined) {
    const length = start + Number(headers['content-length'])
    if (bytes.length < length) return null
    return { answer: { status, headers, body: bytes.subarray(start, length) }, length }
  }
  // Neither: the body runs to the connection's end.
  return closed
    ? { answer: { status, headers, body: bytes.subarray(start) }, length: bytes.length }
    : null
}

function dechunk(
  bytes: Buffer,
  start: number,
  status: number,
  headers: Record<string, string>,
): { answer: RawResponse; length: number } | null {
  const chunks: Buffer[] = []
  for (let at = start; ; ) {
    const lineEnd = bytes.indexOf('\r\n', at)
    if (lineEnd < 0) return null
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16)
    const dataEnd = lineEnd + 2 + size
    if (bytes.length < dataEnd + 2) return null
    if (size === 0) {
      const body = Buffer.concat(chunks)
      return { answer: { status, headers, body }, length: dataEnd + 2 }
    }
    chunks.push(bytes.subarray(lineEnd + 2, dataEnd))
    at = dataEnd + 2
  }
}
